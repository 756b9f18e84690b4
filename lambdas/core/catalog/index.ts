/**
 * The catalog's one door (SPEC 5.2, 5.5): sources → drafts → catalog document (format 2) + results summary.
 * `buildCatalog` is the entry point; the rest is what the job worker, the operations API, exports and the
 * adapters need. Code outside lambdas/core/catalog imports from here only (biome.json enforces it), so that
 * the folders behind it can be rearranged without touching the service; tests may reach a part directly.
 *
 * Nothing in the catalog imports this file (a part imports the part it needs), and the catalog imports no
 * use case, handler or adapter: the import graph stays acyclic (biome.json `noImportCycles`).
 */

export * from './build-catalog';
export { readAll } from './bytes';
export * from './changes';
export * from './document';
export { catalogDocumentV1UploadSchema, imageMappingV1Schema, itemV1Schema } from './document-v1';
export * from './draft';
export type {
  DraftingServices,
  SourceCopyDetails,
  WebPageCopy,
} from './drafts/drafting';
export { OCR_LANGUAGE_DATA, PADDLE_LANGUAGES, TESSERACT_DATA } from './drafts/ocr-languages';
export { orientationOf, toPgm } from './drafts/page-image';
export { loadPdfJs, pdfJsDataOptions } from './drafts/pdf-text';
export * from './drafts/ports';
export * from './errors';
export * from './export/index';
export * from './finishing/image-mapping';
export * from './finishing/results';
export * from './ids';
export * from './money';
export type { SourceInput } from './read-source';
export { isSignInPage, shareLinkDownload } from './share-links';
export { inertContentType } from './sources/html-review';
export { sniffPhotoFormat } from './sources/signatures';
export * from './sources/types';
export { upgradeCatalogStream } from './upgrade-stream';
export * from './warnings';
export { DEFAULT_WEB_LIMITS, DEFAULT_WEB_SETTINGS, type WebSourceSettings, webUserAgent } from './web/limits';
export * from './writer';
