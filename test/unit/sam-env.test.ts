import { samEnvFile } from '../../lib/local/sam-env';

const environment = {
  TABLE_NAME: 'catalog-jobs',
  JOBS_RUSH_QUEUE_URL: 'http://127.0.0.1:4566/000000000000/catalog-jobs-rush',
  CALLBACKS_DLQ_URL: 'http://localhost:4566/000000000000/catalog-callbacks-dlq',
  UPLOADS_BUCKET: 'catalog-uploads',
  AWS_ENDPOINT_URL_DYNAMODB: 'http://127.0.0.1:8000',
  AWS_ENDPOINT_URL_SQS: 'http://127.0.0.1:4566',
  AWS_ENDPOINT_URL_S3: 'http://127.0.0.1:4566',
  STORAGE_ENDPOINT: 'http://127.0.0.1:4570',
  S3_FORCE_PATH_STYLE: 'true',
  AWS_REGION: 'us-east-1',
  AWS_ACCESS_KEY_ID: 'local',
  AWS_SECRET_ACCESS_KEY: 'local',
};

describe('the env-vars file of sam local start-api (npm run emulators -- --sam-env)', () => {
  it('gives every function the emulators’ resources and endpoints, and leaves credentials and region to SAM', () => {
    const { Parameters } = samEnvFile(environment);
    expect(Parameters).toEqual({
      TABLE_NAME: 'catalog-jobs',
      JOBS_RUSH_QUEUE_URL: 'http://127.0.0.1:4566/000000000000/catalog-jobs-rush',
      CALLBACKS_DLQ_URL: 'http://127.0.0.1:4566/000000000000/catalog-callbacks-dlq',
      UPLOADS_BUCKET: 'catalog-uploads',
      AWS_ENDPOINT_URL_DYNAMODB: 'http://127.0.0.1:8000',
      AWS_ENDPOINT_URL_SQS: 'http://127.0.0.1:4566',
      AWS_ENDPOINT_URL_S3: 'http://127.0.0.1:4566',
      STORAGE_ENDPOINT: 'http://127.0.0.1:4570',
      S3_FORCE_PATH_STYLE: 'true',
    });
  });

  it('points what the functions call at the host Docker Desktop names, and keeps the clients’ storage address', () => {
    const { Parameters } = samEnvFile(environment, 'host.docker.internal');
    expect(Parameters.AWS_ENDPOINT_URL_DYNAMODB).toBe('http://host.docker.internal:8000');
    expect(Parameters.AWS_ENDPOINT_URL_SQS).toBe('http://host.docker.internal:4566');
    expect(Parameters.AWS_ENDPOINT_URL_S3).toBe('http://host.docker.internal:4566');
    expect(Parameters.JOBS_RUSH_QUEUE_URL).toBe(
      'http://host.docker.internal:4566/000000000000/catalog-jobs-rush',
    );
    expect(Parameters.CALLBACKS_DLQ_URL).toBe(
      'http://host.docker.internal:4566/000000000000/catalog-callbacks-dlq',
    );
    expect(Parameters.STORAGE_ENDPOINT).toBe('http://127.0.0.1:4570');
    expect(Parameters.TABLE_NAME).toBe('catalog-jobs');
  });

  it('refuses a host that is not a host name', () => {
    expect(() => samEnvFile(environment, 'evil.example/path?')).toThrow('--sam-host');
    expect(() => samEnvFile(environment, '')).toThrow('--sam-host');
  });
});
