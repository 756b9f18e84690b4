import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import type { Context, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { jobMessageSchema, PermanentMessageError, parseMessage } from '../../core/messages';
import { startJob } from '../../core/use-cases/job-processing';
import { type AppDeps, defaultDeps } from '../../shared/deps';
import { lazy } from '../../shared/http';

/**
 * Consumer of the rush and standard job queues. A transient failure fails only its record (SQS redelivers
 * it, then dead-letters it); a permanent one is logged and acknowledged.
 */
export const makeJobWorkerHandler = (deps: AppDeps) => {
  const processor = new BatchProcessor(EventType.SQS);
  const record = async (rec: SQSRecord): Promise<void> => {
    try {
      const message = parseMessage(jobMessageSchema, rec.body);
      const outcome = await startJob(deps, message.clientId, message.jobId);
      deps.logger.info('job message handled', { job_id: message.jobId, outcome: outcome.kind });
    } catch (error) {
      if (error instanceof PermanentMessageError) {
        deps.logger.error('dropping unprocessable job message', { message_id: rec.messageId, error });
        return;
      }
      throw error;
    }
  };
  return (event: SQSEvent, context: Context): Promise<SQSBatchResponse> =>
    processPartialResponse(event, record, processor, { context });
};

export const handler = lazy(() => makeJobWorkerHandler(defaultDeps()));
