import type { ItemChange } from '../../../schemas/changes';
import { bufferChunks } from '../../bytes';
import { ChangeSummary, changesDocumentChunks } from '../../changes';
import type { ExportWriter } from '../formats-types';
import { ALL_JOBS } from '../formats-types';

/**
 * `changes`: every change since the merchant's previous catalog, as the job recorded them when it built
 * its catalog (changes.ts, one change per line). A job with a merchant_token but no earlier catalog has
 * everything added: that document is made here from the catalog, with `since_job_id` null.
 */
export const changesJson: ExportWriter = {
  contentType: 'application/json',
  fileName: 'changes.json',
  jobTypes: ALL_JOBS,
  async *write(run) {
    let items = 0;
    if (run.openChanges !== null) {
      const open = run.openChanges;
      async function* copy(): AsyncGenerator<Uint8Array> {
        let partial = '';
        const decoder = new TextDecoder();
        for await (const chunk of bufferChunks(await open())) {
          const lines = (partial + decoder.decode(chunk, { stream: true })).split('\n');
          partial = lines.pop() ?? '';
          items += lines.filter((l) => l.startsWith('{"change"')).length;
          yield chunk;
        }
      }
      yield { index: 1, chunks: copy(), itemCount: () => items };
      return;
    }
    const catalog = await run.catalog();
    const summary = new ChangeSummary('');
    async function* added(): AsyncGenerator<ItemChange> {
      for await (const item of catalog.items()) {
        items += 1;
        yield summary.count(
          {
            change: 'added',
            item_id: item.id,
            name: item.name,
            fields: [{ field: 'item', variant_id: null, before: null, after: item }],
          },
          0,
        );
      }
    }
    const { head } = catalog.index;
    yield {
      index: 1,
      chunks: changesDocumentChunks(
        { job_id: head.job_id, since_job_id: null, generated_at: head.generated_at },
        added(),
        () => summary.result(),
      ),
      itemCount: () => items,
    };
  },
};
