import {
  type CatalogDocument,
  catalogJsonChunks,
  EXPORT_WRITERS,
  ExportWarnings,
  openStoredCatalog,
  type StoredCatalog,
  slugOf,
} from '../../lambdas/core/catalog/index';
import type { ExportWarning } from '../../lambdas/core/model';
import type { ExportFormat } from '../../lambdas/core/schemas/export';

export interface WrittenExport {
  /** Each file's bytes, in order. */
  readonly files: Buffer[];
  readonly itemCounts: number[];
  readonly warnings: ExportWarning[];
}

const bytesOf = async (chunks: AsyncIterable<string | Uint8Array>): Promise<Buffer> => {
  const parts: Buffer[] = [];
  for await (const chunk of chunks)
    parts.push(typeof chunk === 'string' ? Buffer.from(chunk) : Buffer.from(chunk));
  return Buffer.concat(parts);
};

/** Runs a format's writer over a catalog document stored as the job worker stores it, in memory. */
export const exportDocument = async (
  document: CatalogDocument,
  format: ExportFormat,
  options: { linkTemplate?: string; changes?: Buffer } = {},
): Promise<WrittenExport> => {
  const stored = await bytesOf(catalogJsonChunks(document, { chunkSize: 1000 }));
  const open = async () =>
    (async function* () {
      // Small chunks, so that lines are cut across chunks as S3's are.
      for (let i = 0; i < stored.length; i += 777) yield stored.subarray(i, i + 777);
    })();
  let catalog: StoredCatalog | null = null;
  const warnings = new ExportWarnings();
  const files: Buffer[] = [];
  const itemCounts: number[] = [];
  const changes = options.changes;
  for await (const part of EXPORT_WRITERS[format].write({
    exportId: '6f1c1b1e-5d3a-4c55-9a51-7d2a8b0c9e10',
    open,
    catalog: async (needs) => {
      catalog ??= await openStoredCatalog(open, slugOf, needs);
      return catalog;
    },
    openChanges:
      changes === undefined
        ? null
        : async () =>
            (async function* () {
              yield changes;
            })(),
    linkTemplate: options.linkTemplate ?? null,
    warnings,
  })) {
    files.push(await bytesOf(part.chunks));
    itemCounts.push(part.itemCount());
  }
  return { files, itemCounts, warnings: warnings.list() };
};
