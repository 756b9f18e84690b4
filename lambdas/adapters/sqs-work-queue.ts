import { SendMessageCommand, type SQSClient } from '@aws-sdk/client-sqs';
import type { CallbackMessage, ExportMessage, JobMessage } from '../core/messages';
import type { CallbackDeadLetter, WorkQueue } from '../core/ports';
import type { ProcessingType } from '../core/schemas/job';
import { translateAwsErrors } from './aws-errors';

export interface WorkQueueUrls {
  readonly jobsRush: string;
  readonly jobsStandard: string;
  readonly exports: string;
  readonly callbacks: string;
  /** Callbacks that failed for good, kept for an operator's replay. */
  readonly callbackDeadLetters: string;
}

/**
 * The service's queues: jobs (rush and standard), exports, callbacks and the callbacks' dead letters, through
 * the SDK's SQSClient (its retries; throttling and 5xx become DependencyUnavailableError).
 */
export class SqsWorkQueue implements WorkQueue {
  constructor(
    private readonly sqs: SQSClient,
    private readonly urls: WorkQueueUrls,
  ) {}

  async sendJob(message: JobMessage, processingType: ProcessingType): Promise<void> {
    const url = processingType === 'rush' ? this.urls.jobsRush : this.urls.jobsStandard;
    await this.send(url, message, 'enqueue job');
  }

  async sendExport(message: ExportMessage, delaySeconds?: number): Promise<void> {
    await this.send(this.urls.exports, message, 'enqueue export', delaySeconds);
  }

  async sendCallback(message: CallbackMessage, delaySeconds: number): Promise<void> {
    await this.send(this.urls.callbacks, message, 'enqueue callback', delaySeconds);
  }

  async sendCallbackDeadLetter(letter: CallbackDeadLetter): Promise<void> {
    await this.send(
      this.urls.callbackDeadLetters,
      { kind: 'callback_dead_letter', ...letter },
      'dead-letter callback',
    );
  }

  private async send(url: string, message: object, what: string, delaySeconds?: number): Promise<void> {
    await translateAwsErrors(what, () =>
      this.sqs.send(
        new SendMessageCommand({
          QueueUrl: url,
          MessageBody: JSON.stringify(message),
          ...(delaySeconds === undefined ? {} : { DelaySeconds: delaySeconds }),
        }),
      ),
    );
  }
}
