import type {
  CatalogDocument,
  DraftItem,
  DraftingServices,
  ImageDecoder,
  PageRasterizer,
  SourceCopyDetails,
  TextRecognizer,
} from '../catalog';
import type { JobRecord } from '../model';
import type { ObjectStore } from '../ports';
import { isUuid } from '../schemas/job';
import {
  type ItemProvenance,
  itemProvenanceOf,
  type ReviewSource,
  sourceCopyKey,
  writeDraftReview,
} from './draft-review';

export interface DraftCollectorDeps {
  readonly catalogs: ObjectStore;
  readonly recognizer?: TextRecognizer;
  readonly rasterizer?: PageRasterizer;
  readonly decoder?: ImageDecoder;
}

async function* chunk(bytes: Uint8Array): AsyncIterable<Uint8Array> {
  yield bytes;
}

const key = (path: readonly string[], name: string): string =>
  `${path.map((p) => p.normalize('NFC').trim().toLowerCase()).join('\u0000')}\u0001${name.normalize('NFC').trim().toLowerCase()}`;

/** Every item's category path (names from the top) in a format 2 document. */
const itemIdsByPath = (document: CatalogDocument): Map<string, string> => {
  const categories = new Map(document.categories.map((c) => [c.id, c]));
  const pathOf = (id: string | null): string[] => {
    const path: string[] = [];
    for (let current = id, steps = 0; current !== null && steps < 100; steps++) {
      const category = categories.get(current);
      if (!category) break;
      path.unshift(category.name);
      current = category.parent_id;
    }
    return path;
  };
  const ids = new Map<string, string>();
  for (const item of document.items) ids.set(key(pathOf(item.category_id), item.name), item.id);
  return ids;
};

/**
 * The job worker's side of drafting (DraftingServices): hands the OCR engines to the PDF and photo readers,
 * keeps a copy of each drafted URL source in the catalogs bucket, collects the drafted items' provenance,
 * and once the catalog is assembled writes the review record that `GET /v1/ops/jobs/{id}` shows, each item
 * found in the catalog by its category path and name (the menu's identity rule).
 */
export class DraftCollector implements DraftingServices {
  readonly recognizer?: TextRecognizer;
  readonly rasterizer?: PageRasterizer;
  readonly decoder?: ImageDecoder;
  private readonly drafted: DraftItem[] = [];
  private readonly sources = new Map<number, ReviewSource>();

  constructor(
    private readonly deps: DraftCollectorDeps,
    private readonly job: Pick<JobRecord, 'clientId' | 'id' | 'jobData'>,
  ) {
    this.recognizer = deps.recognizer;
    this.rasterizer = deps.rasterizer;
    this.decoder = deps.decoder;
  }

  indexOf(source: string): number {
    return Math.max(0, this.job.jobData.catalog_sources.indexOf(source));
  }

  async keepCopy(source: string, bytes: Uint8Array, details: SourceCopyDetails): Promise<void> {
    const index = this.indexOf(source);
    // An uploaded file is kept in the uploads bucket already; a URL may answer differently tomorrow.
    const copied = !isUuid(source);
    if (copied) {
      await this.deps.catalogs.write(
        sourceCopyKey(this.job.clientId, this.job.id, index),
        chunk(bytes),
        details.contentType,
      );
    }
    this.sources.set(index, {
      index,
      source,
      format: details.format,
      content_type: details.contentType,
      size_bytes: bytes.length,
      copied,
      pages: details.pages,
      ...(details.webPages ? { web_pages: details.webPages } : {}),
    });
  }

  record(_source: string, items: readonly DraftItem[]): void {
    this.drafted.push(...items);
  }

  /** Writes the review record of the drafted sources (nothing when no source was drafted). */
  async finish(document: CatalogDocument): Promise<number> {
    if (this.sources.size === 0 && this.drafted.length === 0) return 0;
    const ids = itemIdsByPath(document);
    const seen = new Set<string>();
    const items: ItemProvenance[] = [];
    for (const item of this.drafted) {
      const id = ids.get(key(item.categoryPath, item.name));
      // Drafts of the same dish are one item: its first reading stands for it.
      if (id === undefined || seen.has(id)) continue;
      seen.add(id);
      items.push(itemProvenanceOf(id, item, this.indexOf(item.provenance?.source ?? '')));
    }
    await writeDraftReview(this.deps.catalogs, this.job, {
      version: 1,
      sources: [...this.sources.values()],
      items,
    });
    return items.length;
  }

  /** Frees the OCR engine and the last PDF drawn. */
  async release(): Promise<void> {
    await Promise.all([this.recognizer?.release(), this.rasterizer?.release()]);
  }
}
