import { bufferChunks } from './bytes';
import { type ImageMappingV1, type ItemV1, upgradeV1ImageMapping, upgradeV1Item } from './document-v1';
import type { ByteStream } from './sources/types';

/**
 * Exports write catalog format 2 (SPEC 5.5). A catalog stored before format 2 is upgraded while it is
 * streamed into the export file, one entity at a time, so memory stays flat (SPEC 5.3). This relies on
 * the layout `catalogJsonChunks` (writer.ts) writes — the head on the first line, one entity per line —
 * which is how every stored catalog was written; a file in any other layout, or already format 2, is
 * copied unchanged.
 */

const V1_HEAD = '{"format_version":1,';
const LIST = /^"(categories|items|modifier_groups|image_mappings)":\[/;

const upgradeLine = (line: string, list: string | null): string => {
  if (!line.startsWith('{') || (list !== 'items' && list !== 'image_mappings')) return line;
  const comma = line.endsWith(',');
  const entity = JSON.parse(comma ? line.slice(0, -1) : line) as unknown;
  const upgraded =
    list === 'items' ? upgradeV1Item(entity as ItemV1) : upgradeV1ImageMapping(entity as ImageMappingV1);
  return `${JSON.stringify(upgraded)}${comma ? ',' : ''}`;
};

/**
 * The stored catalog's bytes as format 2.
 *
 * @example await exportFiles.write(key, upgradeCatalogStream(await catalogs.read(key)), 'application/json');
 */
export async function* upgradeCatalogStream(source: ByteStream): AsyncGenerator<Buffer> {
  const chunks = bufferChunks(source)[Symbol.asyncIterator]();
  let pending = '';
  let first: Buffer | null = null;
  // Enough of the start to see the head line.
  for (;;) {
    const next = await chunks.next();
    if (next.done) break;
    first = first === null ? next.value : Buffer.concat([first, next.value]);
    if (first.includes(10) || first.length > 64 * 1024) break;
  }
  if (first === null) return;
  const head = first.toString('utf8', 0, Math.min(first.length, 64 * 1024));
  const firstLine = head.split('\n', 1)[0] ?? '';
  if (!firstLine.startsWith(V1_HEAD) || !firstLine.endsWith(',')) {
    yield first;
    for (;;) {
      const next = await chunks.next();
      if (next.done) return;
      yield next.value;
    }
  }
  const decoder = new TextDecoder('utf-8');
  pending = decoder.decode(first, { stream: true });
  let list: string | null = null;
  let started = false;
  const flush = function* (final: boolean): Generator<Buffer> {
    const lines = pending.split('\n');
    pending = final ? '' : (lines.pop() ?? '');
    let out = '';
    for (const line of final ? lines.filter((l, i) => l !== '' || i < lines.length - 1) : lines) {
      let text = line;
      if (!started) {
        text = `{"format_version":2,${line.slice(V1_HEAD.length)}`;
        started = true;
      } else {
        const match = LIST.exec(line);
        if (match !== null) list = match[1] as string;
        else text = upgradeLine(line, list);
      }
      out += `${text}\n`;
    }
    if (out !== '') yield Buffer.from(out, 'utf8');
  };
  yield* flush(false);
  for (;;) {
    const next = await chunks.next();
    if (next.done) break;
    pending += decoder.decode(next.value, { stream: true });
    yield* flush(false);
  }
  pending += decoder.decode();
  yield* flush(true);
}
