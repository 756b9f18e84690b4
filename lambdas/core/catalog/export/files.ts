/**
 * An export file is written as one or more parts: a target that refuses files over a size (Shopify's
 * 15 MB) or over a number of objects (Square's 10,000 per request) gets several files, each whole on its
 * own (its header, complete products), in order. Parts are produced one at a time and each must be read to
 * its end before the next is asked for; chunks are strings of about 64 KiB, so memory holds one chunk.
 */
export interface ExportPart {
  /** 1-based. */
  readonly index: number;
  readonly chunks: AsyncIterable<string | Uint8Array>;
  /** Items written into this part: final once `chunks` is read. */
  readonly itemCount: () => number;
}

export interface PartLayout<G> {
  /** A part may hold at most this many bytes (UTF-8), header and footer included. */
  readonly maxBytes?: number;
  /** … and at most this many units (objects, rows) as `render` counts them. */
  readonly maxUnits?: number;
  /** Items a group is (a product with its variant rows is one). */
  readonly items: (group: G) => number;
  /** The part's header. */
  readonly open: () => string;
  /** A group's text and units, made once per group (writers count warnings there). */
  readonly render: (group: G) => { readonly text: string; readonly units: number };
  /**
   * What goes before a group (a comma, a batch boundary); called for every group placed or tried, `first`
   * for a part's first group, whose separator is not written.
   */
  readonly between?: (units: number, first: boolean) => string;
  /** The part's footer, given the units it holds. */
  readonly close: (units: number) => string;
}

const CHUNK = 64 * 1024;

interface Rendered {
  readonly text: string;
  readonly units: number;
  readonly items: number;
}

/**
 * Cuts a stream of groups (the rows of one product, one catalog object) into parts that fit the layout's
 * limits; a group is never split, and a group larger than a whole part gets a part of its own. At least
 * one part is produced, so that an empty catalog still gives a file with its header.
 */
export async function* splitParts<G>(
  groups: AsyncIterable<G>,
  layout: PartLayout<G>,
): AsyncGenerator<ExportPart> {
  const source = groups[Symbol.asyncIterator]();
  let held: Rendered | null = null;
  let ended = false;
  const next = async (): Promise<Rendered | null> => {
    if (held !== null) {
      const g = held;
      held = null;
      return g;
    }
    if (ended) return null;
    const result = await source.next();
    if (result.done) {
      ended = true;
      return null;
    }
    const { text, units } = layout.render(result.value);
    return { text, units, items: layout.items(result.value) };
  };
  // The footer's size is bounded by its largest form; measured once with the most units a part may hold.
  const closing = Buffer.byteLength(layout.close(layout.maxUnits ?? 0)) + 16;
  let index = 0;
  for (;;) {
    const first = await next();
    if (first === null && index > 0) return;
    index += 1;
    let items = 0;
    let finished = false;
    const chunks = async function* (): AsyncGenerator<string> {
      let buffer = layout.open();
      let bytes = Buffer.byteLength(buffer) + closing;
      let units = 0;
      let count = 0;
      let current = first;
      while (current !== null) {
        const separator = layout.between?.(current.units, count === 0) ?? '';
        const size = Buffer.byteLength(current.text) + (count === 0 ? 0 : Buffer.byteLength(separator));
        const overBytes = layout.maxBytes !== undefined && bytes + size > layout.maxBytes;
        const overUnits = layout.maxUnits !== undefined && units + current.units > layout.maxUnits;
        if (count > 0 && (overBytes || overUnits)) {
          held = current;
          break;
        }
        buffer += (count === 0 ? '' : separator) + current.text;
        bytes += size;
        units += current.units;
        count += 1;
        items += current.items;
        if (buffer.length >= CHUNK) {
          yield buffer;
          buffer = '';
        }
        current = await next();
      }
      yield buffer + layout.close(units);
      finished = true;
    };
    yield { index, chunks: chunks(), itemCount: () => items };
    if (!finished) throw new Error('an export part was not read to its end before the next was asked for');
  }
}
