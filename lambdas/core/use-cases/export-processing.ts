import {
  EXPORT_WRITERS,
  ExportWarnings,
  exportFileName,
  openStoredCatalog,
  type StoredCatalog,
  slugOf,
} from '../catalog';
import { ConflictError, NotFoundError } from '../errors';
import type { ExportRecord, JobRecord, Problem, StoredExportFile } from '../model';
import { problem } from '../model';
import {
  type Clock,
  type ExportRepository,
  type JobRepository,
  type ObjectStore,
  objectKeys,
  type WorkQueue,
} from '../ports';
import { isTerminalExportState, isTerminalJobState } from '../states';
import { firstCallbackMessage, PENDING_CALLBACK } from './callbacks';

export interface ExportProcessingDeps {
  readonly jobs: JobRepository;
  readonly exports: ExportRepository;
  /** The catalog documents the job worker writes. */
  readonly catalogs: ObjectStore;
  /** The export files clients download. */
  readonly exportFiles: ObjectStore;
  readonly queue: Pick<WorkQueue, 'sendExport' | 'sendCallback'>;
  readonly clock: Clock;
}

/**
 * An export waiting for its job looks again after this long, in case the job's completion notice missed it
 * (the index it reads is eventually consistent). Job completion is what normally moves it.
 */
export const EXPORT_RECHECK_SECONDS = 900;

/** A finished export whose first callback is still unsent after this long lost its callback message. */
export const CALLBACK_RESEND_AFTER_SECONDS = 60;

export type ExportOutcome =
  | { readonly kind: 'completed'; readonly export: ExportRecord }
  | { readonly kind: 'failed'; readonly export: ExportRecord }
  | { readonly kind: 'waiting'; readonly jobState: JobRecord['state'] }
  | { readonly kind: 'callback_resent' }
  | { readonly kind: 'skipped'; readonly reason: 'not_found' | 'terminal' | 'conflict' };

const announce = async (deps: ExportProcessingDeps, exp: ExportRecord): Promise<void> => {
  if (exp.callbackUrl !== null) await deps.queue.sendCallback(firstCallbackMessage(exp), 0);
};

const finishFailed = async (
  deps: ExportProcessingDeps,
  exp: ExportRecord,
  error: Problem,
): Promise<ExportOutcome> => {
  const at = deps.clock.now().toISOString();
  try {
    const failed = await deps.exports.transition(exp.clientId, exp.id, {
      event: 'fail',
      set: { error, completedAt: at, callback: exp.callbackUrl === null ? null : PENDING_CALLBACK },
      at,
    });
    await announce(deps, failed);
    return { kind: 'failed', export: failed };
  } catch (e) {
    if (e instanceof ConflictError) return { kind: 'skipped', reason: 'conflict' };
    throw e;
  }
};

/**
 * Advances one export (SPEC 5.3). While its job runs, the export waits. Once the job is completed, the
 * job's catalog document is streamed into the export file (memory stays flat whatever its size), with its
 * size and SHA-256, and the export completes; a failed or canceled job fails it with `job_failed`. Either
 * way the callback, if any, is queued. Every move is a conditional transition, so a duplicate message
 * writes the same file again at most and never sends a second callback series.
 */
export const processExport = async (
  deps: ExportProcessingDeps,
  clientId: string,
  exportId: string,
): Promise<ExportOutcome> => {
  const exp = await deps.exports.get(clientId, exportId);
  if (!exp) return { kind: 'skipped', reason: 'not_found' };
  if (isTerminalExportState(exp.state)) {
    // The worker that finished it may have stopped before queueing the callback: queue it again once that
    // worker has had time to do so itself. The callback worker makes one attempt per recorded attempt
    // number, so a duplicate message does not make a second series.
    const age = (deps.clock.now().getTime() - Date.parse(exp.updatedAt)) / 1000;
    const unsent =
      exp.callbackUrl !== null && exp.callback?.state === 'pending' && exp.callback.attempts === 0;
    if (unsent && age > CALLBACK_RESEND_AFTER_SECONDS) {
      await announce(deps, exp);
      return { kind: 'callback_resent' };
    }
    return { kind: 'skipped', reason: 'terminal' };
  }

  const job = await deps.jobs.get(clientId, exp.jobId);
  if (!job) {
    return finishFailed(deps, exp, problem('job_failed', 'Job failed', 'The exported job no longer exists.'));
  }
  if (job.state === 'failed' || job.state === 'canceled') {
    return finishFailed(
      deps,
      exp,
      problem('job_failed', 'Job failed', `The job was ${job.state}; it has no catalog to export.`),
    );
  }
  if (!isTerminalJobState(job.state)) {
    await deps.queue.sendExport({ kind: 'export', clientId, exportId }, EXPORT_RECHECK_SECONDS);
    return { kind: 'waiting', jobState: job.state };
  }

  let current = exp;
  if (current.state === 'initiated') {
    try {
      current = await deps.exports.transition(clientId, exportId, {
        event: 'start',
        expectedVersion: exp.version,
        at: deps.clock.now().toISOString(),
      });
    } catch (error) {
      if (!(error instanceof ConflictError)) throw error;
      // Another worker moved it: carry on only if it is still unfinished (that worker may have crashed).
      const now = error.current as ExportRecord | undefined;
      if (now?.state !== 'processing') return { kind: 'skipped', reason: 'conflict' };
      current = now;
    }
  }

  let written: { files: StoredExportFile[]; warnings: ExportWarnings };
  try {
    written = await writeExport(deps, current, job);
  } catch (error) {
    if (error instanceof NotFoundError) {
      return finishFailed(
        deps,
        current,
        problem('export_failed', 'Export failed', 'The job completed but its catalog could not be found.'),
      );
    }
    throw error;
  }
  const [first] = written.files;
  if (first === undefined) throw new Error('an export wrote no file');

  const at = deps.clock.now().toISOString();
  try {
    const completed = await deps.exports.transition(clientId, exportId, {
      event: 'complete',
      set: {
        objectKey: first.key,
        completedAt: at,
        clientMappings: (job.jobData.client_mappings as Record<string, unknown> | undefined) ?? {},
        file: {
          content_type: first.content_type,
          size_bytes: first.size_bytes,
          checksum_sha256: first.checksum_sha256,
          item_count: first.item_count,
        },
        files: (current.format ?? 'catalog_json') === 'catalog_json' ? null : written.files,
        warnings: written.warnings.list(),
        callback: current.callbackUrl === null ? null : PENDING_CALLBACK,
      },
      at,
    });
    await announce(deps, completed);
    return { kind: 'completed', export: completed };
  } catch (error) {
    if (error instanceof ConflictError) return { kind: 'skipped', reason: 'conflict' };
    throw error;
  }
};

/**
 * Writes the export's file(s) with its format's writer (catalog/export), each part streamed into an object
 * of its own: memory holds a chunk, not the file. A file split to fit its target's limit is named in the
 * warnings with what the client must know.
 */
const writeExport = async (
  deps: ExportProcessingDeps,
  exp: ExportRecord,
  job: JobRecord,
): Promise<{ files: StoredExportFile[]; warnings: ExportWarnings }> => {
  const format = exp.format ?? 'catalog_json';
  const writer = EXPORT_WRITERS[format];
  const catalogKey = objectKeys.catalog(exp.clientId, job.id);
  const open = () => deps.catalogs.read(catalogKey);
  const changesKey = objectKeys.changes(exp.clientId, job.id);
  const hasChanges = format === 'changes' && (await deps.catalogs.size(changesKey)) !== undefined;
  let indexed: StoredCatalog | null = null;
  const warnings = new ExportWarnings();
  const files: StoredExportFile[] = [];
  for await (const part of writer.write({
    exportId: exp.id,
    open,
    catalog: async (needs) => {
      indexed ??= await openStoredCatalog(open, slugOf, needs);
      return indexed;
    },
    openChanges: hasChanges ? () => deps.catalogs.read(changesKey) : null,
    linkTemplate: exp.linkTemplate ?? null,
    warnings,
  })) {
    const key =
      format === 'catalog_json'
        ? objectKeys.exportFile(exp.clientId, exp.id)
        : objectKeys.exportPart(exp.clientId, exp.id, part.index);
    const object = await deps.exportFiles.write(key, part.chunks, writer.contentType);
    files.push({
      key,
      name: '',
      content_type: writer.contentType,
      size_bytes: object.sizeBytes,
      checksum_sha256: object.sha256,
      // The job's own count is the catalog document's; other formats count what they wrote.
      item_count:
        format === 'catalog_json' ? (job.results.catalog?.item_count ?? part.itemCount()) : part.itemCount(),
    });
  }
  if (files.length > 1)
    warnings.add(
      'split',
      null,
      (n) =>
        `the file was split into ${n} files to fit the target's size limit, each whole (its header, complete items)${writer.splitNote ? `. ${writer.splitNote}` : ''}`,
      files.length,
    );
  return {
    files: files.map((f, i) => ({ ...f, name: exportFileName(format, i + 1, files.length) })),
    warnings,
  };
};

/**
 * Wakes the exports of a job that has just reached a terminal state: job completion (or failure) is what
 * moves its waiting exports, not a sweep over all exports.
 */
export const wakeExportsOfJob = async (
  deps: Pick<ExportProcessingDeps, 'exports' | 'queue'>,
  job: Pick<JobRecord, 'clientId' | 'id'>,
): Promise<number> => {
  const waiting = (await deps.exports.listForJob(job.clientId, job.id)).filter(
    (e) => !isTerminalExportState(e.state),
  );
  await Promise.all(
    waiting.map((e) => deps.queue.sendExport({ kind: 'export', clientId: e.clientId, exportId: e.id })),
  );
  return waiting.length;
};
