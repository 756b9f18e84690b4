import {
  type CatalogDocument,
  type Category,
  type CategoryPaths,
  ChangeSummary,
  categoryPaths,
  changesDocumentChunks,
  diffCatalogs,
  type Item,
  storedEntities,
} from '../catalog';
import type { JobRecord } from '../model';
import { type Clock, type JobRepository, type ObjectStore, objectKeys } from '../ports';
import type { CatalogChanges } from '../schemas/changes';

export interface ChangesDeps {
  readonly jobs: Pick<JobRepository, 'findPreviousCompleted'>;
  readonly catalogs: ObjectStore;
  readonly clock: Clock;
}

/**
 * What changed since the merchant's previous catalog (SPEC 5.5): for a job with a merchant_token whose
 * client has an earlier completed job of the same type and token, every change is written beside the
 * catalog (the `changes` export streams it) and the summary returned for `results.changes`; undefined
 * otherwise. The previous catalog is streamed from storage, item by item, against this one in memory.
 */
export const recordChanges = async (
  deps: ChangesDeps,
  job: JobRecord,
  document: CatalogDocument,
): Promise<CatalogChanges | undefined> => {
  const token = job.jobData.merchant_token;
  if (!token) return undefined;
  const previous = await deps.jobs.findPreviousCompleted(job.clientId, job.jobType, token, job.id);
  if (previous === undefined) return undefined;
  const key = objectKeys.catalog(previous.clientId, previous.id);
  if ((await deps.catalogs.size(key)) === undefined) return undefined;
  const earlier: Category[] = [];
  let before: CategoryPaths | null = null;
  async function* previousItems(): AsyncGenerator<Item> {
    // The stored catalog lists its categories before its items, so they are all known at the first item.
    for await (const entity of storedEntities(await deps.catalogs.read(key), () => undefined)) {
      if (entity.list === 'categories') earlier.push(entity.value);
      else if (entity.list === 'items') yield entity.value;
    }
  }
  const paths = {
    before: (id: string | null) => {
      before ??= categoryPaths(earlier);
      return before(id);
    },
    after: categoryPaths(document.categories),
  };
  const summary = new ChangeSummary(previous.id);
  await deps.catalogs.write(
    objectKeys.changes(job.clientId, job.id),
    changesDocumentChunks(
      { job_id: job.id, since_job_id: previous.id, generated_at: deps.clock.now().toISOString() },
      diffCatalogs(previousItems(), document.items, paths, summary),
      () => summary.result(),
    ),
    'application/json',
  );
  return summary.result();
};
