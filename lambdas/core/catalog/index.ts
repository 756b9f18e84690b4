/**
 * Catalog building (SPEC 5.2, 5.5): sources → drafts → catalog document (format 2) + results summary.
 * `buildCatalog` is the entry point; the rest is exported for the job worker, the operations API, exports
 * and the readers other parts plug in.
 */
export * from './build-catalog';
export * from './changes';
export * from './document';
export * from './draft';
export * from './errors';
export * from './export/index';
export * from './finishing/image-mapping';
export * from './finishing/results';
export * from './ids';
export * from './money';
export * from './sources/types';
export * from './warnings';
export * from './writer';
