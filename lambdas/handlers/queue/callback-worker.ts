import { callbackMessageSchema } from '../../core/messages';
import { exportResource } from '../../core/model';
import { CallbackSlots, deliverCallback } from '../../core/use-cases/callbacks';
import { deliveryLink } from '../../core/use-cases/exports';
import { loadConfig } from '../../shared/config';
import type { AppDeps } from '../../shared/deps';
import { lazy } from '../../shared/lazy';
import { count, METRIC } from '../../shared/metrics';
import { guardedHttp } from '../../shared/outbound-wiring';
import { sqsConsumer } from '../../shared/queue';
import { workQueue } from '../../shared/queue-wiring';
import { objectStore } from '../../shared/storage-wiring';
import { basics, credentialRepository, exportRepository } from '../../shared/wiring';

export type CallbackWorkerDeps = Pick<
  AppDeps,
  | 'exports'
  | 'credentials'
  | 'http'
  | 'queue'
  | 'clock'
  | 'retryDelays'
  | 'exportFiles'
  | 'logger'
  | 'metrics'
>;

/**
 * Consumer of the callbacks queue: one signed delivery attempt per message (SPEC 6), at most CALLBACK_SLOTS
 * of one client's at once in this consumer (a Lambda container; locally the one callbacks thread, which
 * runs every batch).
 */
export const makeCallbackWorkerHandler = (deps: CallbackWorkerDeps, slots = new CallbackSlots()) =>
  sqsConsumer(deps, 'callback-worker', callbackMessageSchema, async (message) => {
    const outcome = await deliverCallback(
      {
        slots,
        exports: deps.exports,
        credentials: deps.credentials,
        http: deps.http,
        queue: deps.queue,
        clock: deps.clock,
        retryDelays: deps.retryDelays,
        renderExport: async (exp) => exportResource(exp, await deliveryLink(deps, exp)),
      },
      message,
    );
    if (outcome.kind === 'delivered' || outcome.kind === 'retry' || outcome.kind === 'failed') {
      count(deps, METRIC.callbackAttempts);
    }
    if (outcome.kind === 'delivered') count(deps, METRIC.callbacksDelivered);
    if (outcome.kind === 'failed') count(deps, METRIC.callbacksFailed);
    // Never the URL's query or the body: a callback URL may carry the receiver's own token.
    return {
      export_id: message.exportId,
      event_id: message.eventId,
      attempt: message.attempt,
      outcome: outcome.kind,
    };
  });

export const handler = lazy(() => {
  const config = loadConfig();
  return makeCallbackWorkerHandler({
    ...basics(config),
    exports: exportRepository(config),
    credentials: credentialRepository(config),
    http: guardedHttp(config),
    queue: workQueue(config),
    retryDelays: config.callbackRetryDelays,
    exportFiles: objectStore(config, 'exports'),
  });
});
