import { imageSize } from 'image-size';
import { discardBody, OutboundError } from '../../outbound';
import type { OutboundHttp } from '../../ports';
import type { ImageMappingResults } from '../../schemas/results';
import type { ImageMapping, Item, ItemImage, Variant } from '../document';
import type { ImageFormat } from '../drafts/ports';
import { hasValidCheckDigit } from '../gtin';
import { sniffImageFormat } from '../sources/signatures';

/** Identifiers found in an image URL's file name, in the order they are tried. */
export interface ImageIdentifiers {
  /** Digit runs that are valid GTINs (8–14 digits, check digit verified; shorter runs are taken to have lost leading zeros), as GTIN-14. */
  readonly gtin14s: readonly string[];
  /** SKU candidates, lower-cased: the whole file name, then shorter prefixes, then single tokens. */
  readonly skus: readonly string[];
}

const fileStem = (url: string): string => {
  let path = url;
  try {
    path = new URL(url).pathname;
  } catch {
    path = url.split(/[?#]/, 1)[0] ?? '';
  }
  let name = path.split('/').filter(Boolean).at(-1) ?? '';
  try {
    name = decodeURIComponent(name);
  } catch {
    // keep the raw name: a bad escape is no reason to drop the image
  }
  return name.replace(/\.[A-Za-z0-9]{1,5}$/, '').trim();
};

/**
 * Finds the GTIN/UPC and SKU candidates in an image URL's file name (SPEC 5.2 retail_image_mapping).
 *
 * @example extractImageIdentifiers('https://cdn.example/img/036000291452_front.jpg')
 * // { gtin14s: ['00036000291452'], skus: ['036000291452_front', '036000291452', 'front'] }
 */
export const extractImageIdentifiers = (url: string): ImageIdentifiers => {
  const stem = fileStem(url);
  const gtin14s = new Set<string>();
  for (const run of stem.match(/\d+/g) ?? []) {
    if (run.length >= 8 && run.length <= 14 && hasValidCheckDigit(run)) gtin14s.add(run.padStart(14, '0'));
  }
  const skus = new Set<string>();
  const lowerStem = stem.toLowerCase();
  if (lowerStem) skus.add(lowerStem);
  // `ABC-123_front` → `ABC-123`, `ABC`: a SKU followed by a view or sequence suffix.
  for (let cut = lowerStem.search(/[-_\s.+,][^-_\s.+,]*$/); cut > 0; ) {
    const prefix = lowerStem.slice(0, cut);
    skus.add(prefix);
    cut = prefix.search(/[-_\s.+,][^-_\s.+,]*$/);
  }
  for (const token of lowerStem.split(/[-_\s.+,]+/)) if (token) skus.add(token);
  return { gtin14s: [...gtin14s], skus: [...skus] };
};

export interface ImageInfo {
  readonly format: ImageFormat;
  /** Null when the header could not be read (a truncated file). */
  readonly width: number | null;
  readonly height: number | null;
}

/**
 * Checks an image's magic bytes (JPEG, PNG, GIF, WebP only) and reads its dimensions from the header.
 * Returns null for anything else (HTML error pages, SVG, PDF, ...).
 *
 * @example inspectImage(pngBytes) // { format: 'png', width: 640, height: 480 }
 */
export const inspectImage = (bytes: Uint8Array): ImageInfo | null => {
  const format = sniffImageFormat(bytes);
  if (format === null) return null;
  try {
    const size = imageSize(bytes);
    const valid = (n: number | undefined) => (n !== undefined && Number.isInteger(n) && n > 0 ? n : null);
    return { format, width: valid(size.width), height: valid(size.height) };
  } catch {
    return { format, width: null, height: null };
  }
};

export type FetchedImage =
  | { readonly ok: true; readonly info: ImageInfo }
  | { readonly ok: false; readonly status: number | null; readonly reason: string };

export interface FetchImageOptions {
  readonly timeoutMs: number;
  readonly maxBytes: number;
}

/**
 * Fetches an image through the guarded client and inspects it. Reading stops as soon as the dimensions
 * are known (or the bytes are clearly not an image), so big images are not downloaded whole.
 * Never throws for outbound failures: they come back as `{ ok: false, reason }`.
 */
export const fetchImage = async (
  http: OutboundHttp,
  url: string,
  options: FetchImageOptions,
): Promise<FetchedImage> => {
  try {
    const response = await http.request({
      url,
      method: 'GET',
      headers: { accept: 'image/jpeg, image/png, image/gif, image/webp' },
      timeoutMs: options.timeoutMs,
      maxBytes: options.maxBytes,
      followRedirects: true,
    });
    if (response.status < 200 || response.status > 299) {
      await discardBody(response);
      return { ok: false, status: response.status, reason: `HTTP ${response.status}` };
    }
    const chunks: Buffer[] = [];
    let info: ImageInfo | null = null;
    let length = 0;
    for await (const chunk of response.body) {
      chunks.push(Buffer.from(chunk));
      length += chunk.length;
      if (length < 16) continue;
      const bytes = chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks);
      chunks.splice(0, chunks.length, bytes);
      info = inspectImage(bytes);
      if (info === null || info.width !== null) break;
    }
    if (info === null || length < 16) {
      info = inspectImage(Buffer.concat(chunks));
      if (info === null) {
        return { ok: false, status: response.status, reason: 'not a JPEG, PNG, GIF or WebP image' };
      }
    }
    return { ok: true, info };
  } catch (error) {
    if (error instanceof OutboundError) return { ok: false, status: null, reason: error.message };
    throw error;
  }
};

export interface UnreachableImage {
  readonly url: string;
  /** The HTTP status when the server answered. */
  readonly status: number | null;
  readonly reason: string;
}

export interface ImageMappingOptions {
  /** Images fetched at the same time (8). */
  readonly concurrency?: number;
  /** Per image (15 s). */
  readonly timeoutMs?: number;
  /** Per image (20 MiB). */
  readonly maxBytes?: number;
  /** How many unmatched / unreachable images are listed in the results (100); all are counted. */
  readonly listLimit?: number;
}

export interface ImageMappingOutcome {
  readonly imageMappings: ImageMapping[];
  readonly results: Required<ImageMappingResults>;
}

interface Match {
  readonly item: Item;
  readonly variant: Variant;
  readonly matchedBy: 'gtin' | 'sku';
}

/** Runs `task` over `inputs` with at most `limit` at a time; results keep the input order. */
const mapWithConcurrency = async <T, R>(
  inputs: readonly T[],
  limit: number,
  task: (input: T) => Promise<R>,
): Promise<R[]> => {
  const results = new Array<R>(inputs.length);
  let next = 0;
  const worker = async () => {
    while (next < inputs.length) {
      const index = next;
      next += 1;
      results[index] = await task(inputs[index] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, inputs.length)) }, worker));
  return results;
};

/**
 * retail_image_mapping (SPEC 5.2): matches each image URL to a product variant by the GTIN/UPC found in
 * its file name (compared as GTIN-14, so UPC-12 and GTIN-13/14 match when zero-padded equal), else by SKU;
 * fetches every image with bounded concurrency, checks its magic bytes and records width and height. The
 * image is added to the variant's `images` (the items are changed in place) and an image mapping points
 * at the item and the variant.
 *
 * An image that cannot be fetched or is not an image is "unreachable"; one that is an image but names no
 * product is "unmatched". Duplicate URLs are handled once.
 *
 * @example
 * const { imageMappings, results } = await mapImages(http, catalog.items, job.job_data.image_sources);
 */
export const mapImages = async (
  http: OutboundHttp,
  items: readonly Item[],
  imageUrls: readonly string[],
  options: ImageMappingOptions = {},
): Promise<ImageMappingOutcome> => {
  const listLimit = options.listLimit ?? 100;
  const byGtin = new Map<string, Match>();
  const bySku = new Map<string, Match>();
  for (const item of items) {
    for (const variant of item.variants) {
      if (variant.gtin !== null && !byGtin.has(variant.gtin.padStart(14, '0')))
        byGtin.set(variant.gtin.padStart(14, '0'), { item, variant, matchedBy: 'gtin' });
      if (variant.sku !== null && !bySku.has(variant.sku.trim().toLowerCase()))
        bySku.set(variant.sku.trim().toLowerCase(), { item, variant, matchedBy: 'sku' });
    }
  }
  const findMatch = (url: string): Match | null => {
    const ids = extractImageIdentifiers(url);
    for (const gtin of ids.gtin14s) {
      const match = byGtin.get(gtin);
      if (match) return match;
    }
    for (const sku of ids.skus) {
      const match = bySku.get(sku);
      if (match) return match;
    }
    return null;
  };

  const urls = [...new Set(imageUrls)];
  const fetched = await mapWithConcurrency(urls, options.concurrency ?? 8, (url) =>
    fetchImage(http, url, {
      timeoutMs: options.timeoutMs ?? 15_000,
      maxBytes: options.maxBytes ?? 20 * 1024 * 1024,
    }),
  );

  const mappings: ImageMapping[] = [];
  const unmatched: string[] = [];
  const unreachable: UnreachableImage[] = [];
  urls.forEach((url, index) => {
    const result = fetched[index] as FetchedImage;
    if (!result.ok) {
      unreachable.push({ url, status: result.status, reason: result.reason });
      return;
    }
    const match = findMatch(url);
    if (match === null) {
      unmatched.push(url);
      return;
    }
    const { width, height } = result.info;
    mappings.push({
      image_url: url,
      item_id: match.item.id,
      variant_id: match.variant.id,
      matched_by: match.matchedBy,
      width,
      height,
    });
    const image: ItemImage = { url, width, height };
    // The variant's list may be the catalog's shared empty one: replace it, never push into it.
    if (!match.variant.images.some((i) => i.url === url))
      match.variant.images = [...match.variant.images, image];
  });

  let withoutImage = 0;
  for (const item of items) {
    for (const variant of item.variants)
      if (item.images.length === 0 && variant.images.length === 0) withoutImage += 1;
  }
  return {
    imageMappings: mappings,
    results: {
      mapped_count: mappings.length,
      unmatched_images: unmatched.slice(0, listLimit),
      unmatched_count: unmatched.length,
      unreachable_images: unreachable.slice(0, listLimit),
      unreachable_count: unreachable.length,
      products_without_image_count: withoutImage,
    },
  };
};
