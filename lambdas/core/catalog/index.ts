/** Catalog building (SPEC 5.2, 5.5): sources → catalog document + results summary. */
export * from './builder';
export * from './bytes';
export * from './csv';
export * from './detect';
export * from './document';
export * from './errors';
export * from './gtin';
export * from './ids';
export * from './image-mapping';
export * from './json-source';
export * from './money';
export * from './rows';
export * from './writer';
