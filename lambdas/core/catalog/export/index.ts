/** Export formats (SPEC 3.2): writers of a stored catalog into each target's own file. */

export type { ExportPart } from './files';
export { EXPORT_WRITERS, exportFileName, formatFitsJob } from './formats';
export type { ExportRun, ExportWriter } from './formats-types';
export { type CatalogOpener, openStoredCatalog, type StoredCatalog, storedEntities } from './stored-catalog';
export { slugOf } from './text';
export { ExportWarnings } from './warnings';
