import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import type { Context, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import type * as z from 'zod';
import { PermanentMessageError, parseMessage } from '../core/messages';
import type { AppDeps } from './deps';
import { publishMetrics } from './metrics';

export type SqsConsumer = (event: SQSEvent, context: Context) => Promise<SQSBatchResponse>;

/**
 * A queue consumer (Powertools BatchProcessor): each record is parsed with `schema` and handed to `handle`.
 * A transient failure fails only its record (SQS redelivers it, then dead-letters it); a permanent one (a
 * malformed message) is logged and acknowledged so that it cannot poison the batch.
 */
export const sqsConsumer = <S extends z.ZodType>(
  deps: Pick<AppDeps, 'logger' | 'metrics'>,
  name: string,
  schema: S,
  handle: (message: z.output<S>, record: SQSRecord) => Promise<Record<string, unknown>>,
): SqsConsumer => {
  const record = async (rec: SQSRecord): Promise<void> => {
    try {
      const message = parseMessage(schema, rec.body);
      const outcome = await handle(message, rec);
      deps.logger.info(`${name} handled a message`, {
        message_id: rec.messageId,
        receive_count: rec.attributes.ApproximateReceiveCount,
        ...outcome,
      });
    } catch (error) {
      if (error instanceof PermanentMessageError) {
        deps.logger.error(`${name} dropped an unprocessable message`, { message_id: rec.messageId, error });
        return;
      }
      deps.logger.warn(`${name} will retry a message`, { message_id: rec.messageId, error: error as Error });
      throw error;
    }
  };
  return async (event, context) => {
    try {
      // One processor per invocation: it holds the batch's state, and invocations may overlap (the local
      // runtime runs batches concurrently, as Lambda does in separate environments).
      return await processPartialResponse(event, record, new BatchProcessor(EventType.SQS), { context });
    } finally {
      publishMetrics(deps);
    }
  };
};
