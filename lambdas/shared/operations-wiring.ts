import type { Config } from './config';
import type { AppDeps } from './deps';
import { workQueue } from './queue-wiring';
import { objectStore } from './storage-wiring';
import { basics, exportRepository, fileRepository, jobRepository } from './wiring';

export type OperationsRouteDeps = Pick<
  AppDeps,
  'jobs' | 'exports' | 'catalogs' | 'files' | 'uploads' | 'queue' | 'clock' | 'ids' | 'logger' | 'metrics'
>;

/** The operations routes that move a job (SPEC 5.4): its repository, its exports, its catalog, the queue. */
export const operationsDeps = (config: Config): OperationsRouteDeps => ({
  ...basics(config),
  jobs: jobRepository(config),
  exports: exportRepository(config),
  catalogs: objectStore(config, 'catalogs'),
  files: fileRepository(config),
  uploads: objectStore(config, 'uploads'),
  queue: workQueue(config),
});
