import { SendMessageCommand, type SQSClient } from '@aws-sdk/client-sqs';
import type { ExportMessage, JobMessage, WorkQueue } from '../core/ports';
import type { ProcessingType } from '../core/schemas/job';
import { translateAwsErrors } from './aws-errors';

export interface WorkQueueUrls {
  readonly jobsRush: string;
  readonly jobsStandard: string;
  readonly exports: string;
}

export class SqsWorkQueue implements WorkQueue {
  constructor(
    private readonly sqs: SQSClient,
    private readonly urls: WorkQueueUrls,
  ) {}

  async sendJob(message: JobMessage, processingType: ProcessingType): Promise<void> {
    const url = processingType === 'rush' ? this.urls.jobsRush : this.urls.jobsStandard;
    await this.send(url, message, 'enqueue job');
  }

  async sendExport(message: ExportMessage): Promise<void> {
    await this.send(this.urls.exports, message, 'enqueue export');
  }

  private async send(url: string, message: object, what: string, delaySeconds?: number): Promise<void> {
    await translateAwsErrors(what, () =>
      this.sqs.send(
        new SendMessageCommand({
          QueueUrl: url,
          MessageBody: JSON.stringify(message),
          DelaySeconds: delaySeconds,
        }),
      ),
    );
  }
}
