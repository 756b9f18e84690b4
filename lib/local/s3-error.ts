import type { ServerResponse } from 'node:http';

/** An S3 error answer of the local storage front: its status, S3's code and message. */
export class S3Error extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'S3Error';
  }
}

const xmlEscape = (s: string) => s.replace(/[<>&'"]/g, (c) => `&#${c.charCodeAt(0)};`);

/** Answers as S3 does: the status and an XML `<Error>` body with the code, the message and the request id. */
export const sendS3Error = (res: ServerResponse, error: S3Error, requestId = ''): void => {
  res.writeHead(error.status, { 'content-type': 'application/xml' });
  res.end(
    `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${error.code}</Code><Message>${xmlEscape(error.message)}</Message><RequestId>${requestId}</RequestId></Error>`,
  );
};
