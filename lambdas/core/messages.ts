import * as z from 'zod';
import { DomainError } from './errors';

/** The bodies of the queues' messages. Anything else on a queue is a permanent failure. */
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

/** A message on the callback queue: one delivery attempt of one event (SPEC 6). */
export const callbackMessageSchema = z.strictObject({
  kind: z.literal('callback'),
  clientId: z.string().min(1),
  exportId: z.uuid(),
  /** The webhook-id: the same on every attempt and on an operator's replay. */
  eventId: z.string().min(1).max(255),
  /** 1-based number of the attempt this message asks for. */
  attempt: z.int().min(1),
  /** The attempt is not to be made before this time (a wait longer than SQS's 15-minute delay). */
  notBefore: z.iso.datetime().optional(),
});

export type JobMessage = z.infer<typeof jobMessageSchema>;
export type ExportMessage = z.infer<typeof exportMessageSchema>;
export type CallbackMessage = z.infer<typeof callbackMessageSchema>;

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
