import { upgradeCatalogStream } from '../../upgrade-stream';
import type { ExportWriter } from '../formats-types';
import { ALL_JOBS } from '../formats-types';

/** `catalog_json`: the catalog document of SPEC 5.5 as stored, a format 1 catalog upgraded on the way. */
export const catalogJson: ExportWriter = {
  contentType: 'application/json',
  fileName: 'catalog.json',
  jobTypes: ALL_JOBS,
  async *write(run) {
    const source = await run.open();
    let items = 0;
    async function* counted(): AsyncGenerator<Uint8Array> {
      // Items are one a line between `"items":[` and `]` (writer.ts): counted as they pass.
      let inItems = false;
      let partial = '';
      const decoder = new TextDecoder();
      for await (const chunk of upgradeCatalogStream(source)) {
        const lines = (partial + decoder.decode(chunk, { stream: true })).split('\n');
        partial = lines.pop() ?? '';
        for (const line of lines) {
          if (line.startsWith('"items":[')) inItems = true;
          else if (inItems && line.startsWith('{')) items += 1;
          else if (inItems && line.startsWith(']')) inItems = false;
        }
        yield chunk;
      }
    }
    yield { index: 1, chunks: counted(), itemCount: () => items };
  },
};
