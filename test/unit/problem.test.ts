import {
  ConflictError,
  DependencyUnavailableError,
  ForbiddenError,
  IdempotencyKeyInUseError,
  IdempotencyKeyMismatchError,
  InvalidStateError,
  JobNotExportableError,
  NotFoundError,
  PayloadTooLargeError,
  UnauthorizedError,
  UnsupportedMediaTypeError,
  ValidationError,
} from '../../lambdas/core/errors';
import { toProblem } from '../../lambdas/shared/problem';

describe('error mapping (SPEC 7)', () => {
  it.each([
    [new ValidationError('bad'), 400, 'validation_failed'],
    [new UnauthorizedError('who'), 401, 'unauthorized'],
    [new ForbiddenError('no'), 403, 'forbidden'],
    [new NotFoundError('none'), 404, 'not_found'],
    [new InvalidStateError('late'), 409, 'invalid_state'],
    [new JobNotExportableError('failed job'), 409, 'job_not_exportable'],
    [new ConflictError('race'), 409, 'conflict'],
    [new IdempotencyKeyInUseError('busy'), 409, 'idempotency_key_in_use'],
    [new PayloadTooLargeError('big'), 413, 'payload_too_large'],
    [new UnsupportedMediaTypeError('xml'), 415, 'unsupported_media_type'],
    [new IdempotencyKeyMismatchError('other body'), 422, 'idempotency_key_mismatch'],
    [new DependencyUnavailableError('ddb down'), 503, 'service_unavailable'],
  ])('maps %p to %i %s', (error, status, code) => {
    const problem = toProblem(error, 'req-1');
    expect(problem.status).toBe(status);
    expect(problem.body).toMatchObject({
      status,
      code,
      request_id: 'req-1',
      type: `urn:catalog-jobs:problem:${code}`,
    });
    expect(problem.headers['content-type']).toBe('application/problem+json');
  });

  it('shows client errors their message and field errors', () => {
    const problem = toProblem(
      new ValidationError('The request is invalid.', [
        { pointer: '/job', code: 'required', message: 'is required' },
      ]),
      'r',
    );
    expect(problem.body.detail).toBe('The request is invalid.');
    expect(problem.body.errors).toEqual([{ pointer: '/job', code: 'required', message: 'is required' }]);
  });

  it('adds WWW-Authenticate to 401 and Retry-After to 503', () => {
    expect(toProblem(new UnauthorizedError('x'), 'r').headers['www-authenticate']).toBe('Token');
    expect(
      toProblem(new DependencyUnavailableError('x', { retryAfterSeconds: 9 }), 'r').headers['retry-after'],
    ).toBe('9');
  });

  it('never leaks internals in a 5xx', () => {
    const secret = 'arn:aws:dynamodb:us-east-1:123456789012:table/catalog ProvisionedThroughputExceeded';
    const unavailable = toProblem(new DependencyUnavailableError(secret), 'r');
    expect(JSON.stringify(unavailable.body)).not.toContain('arn:aws');
    const crash = toProblem(new TypeError(`cannot read ${secret}`), 'r');
    expect(crash.status).toBe(500);
    expect(crash.body.code).toBe('internal_error');
    expect(JSON.stringify(crash.body)).not.toContain('arn:aws');
  });
});
