import * as z from 'zod';
import { DomainError } from './errors';

/** The bodies of the work queues' messages. Anything else on a queue is a permanent failure. */
export const jobMessageSchema = z.strictObject({
  kind: z.literal('job'),
  clientId: z.string().min(1),
  jobId: z.uuid(),
});

export const exportMessageSchema = z.strictObject({
  kind: z.literal('export'),
  clientId: z.string().min(1),
  exportId: z.uuid(),
});

/** A message that can never succeed: it is logged and acknowledged so it cannot poison its batch. */
export class PermanentMessageError extends DomainError {
  readonly code = 'invalid_message';
}

export const parseMessage = <S extends z.ZodType>(schema: S, body: string): z.output<S> => {
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch (error) {
    throw new PermanentMessageError('message body is not JSON', { cause: error });
  }
  const result = schema.safeParse(value);
  if (!result.success) throw new PermanentMessageError(`message body is invalid: ${result.error.message}`);
  return result.data;
};
