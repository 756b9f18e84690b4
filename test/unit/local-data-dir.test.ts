import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import {
  DataDirInUseError,
  defaultDataDir,
  lockDataDir,
  readMeta,
  resetDataDir,
  writeMeta,
} from '../../lib/local/data-dir';
import { readRunningState } from '../../lib/local/state-file';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'data-dir-test-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('the local data directory', () => {
  it('is LOCAL_DATA_DIR, resolved against the working directory, else .local/data', () => {
    expect(defaultDataDir({}, '/srv/app')).toBe('/srv/app/.local/data');
    expect(defaultDataDir({ LOCAL_DATA_DIR: 'state' }, '/srv/app')).toBe('/srv/app/state');
    expect(defaultDataDir({ LOCAL_DATA_DIR: '/var/lib/x' }, '/srv/app')).toBe('/var/lib/x');
  });

  it('is held by one process at a time, and free again once that process is gone', async () => {
    // Another process takes it and reports when it holds it.
    const holder = spawn(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `import { DatabaseSync } from 'node:sqlite';
         const db = new DatabaseSync(${JSON.stringify(path.join(dir, '.lock'))});
         db.exec('PRAGMA locking_mode = EXCLUSIVE; BEGIN EXCLUSIVE;');
         console.log('locked');
         setInterval(() => {}, 1000);`,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    await new Promise<void>((resolve) =>
      createInterface({ input: holder.stdout! }).once('line', () => resolve()),
    );
    expect(() => lockDataDir(dir)).toThrow(DataDirInUseError);

    // SIGKILL: the kernel drops the lock with the process.
    const exited = new Promise((resolve) => holder.once('exit', resolve));
    holder.kill('SIGKILL');
    await exited;
    const lock = lockDataDir(dir);
    expect(() => lockDataDir(dir)).toThrow(/in use by another local service/);
    lock.release();
    lockDataDir(dir).release();
  });

  it('--reset removes what the runtime wrote there, and nothing else', () => {
    mkdirSync(path.join(dir, 'dynamodb'));
    writeFileSync(path.join(dir, 'dynamodb', 'CURRENT'), 'x');
    mkdirSync(path.join(dir, 'sqs-s3'));
    writeMeta(dir, { devApiKey: 'cjk_live_x' });
    writeFileSync(path.join(dir, 'notes.txt'), 'mine');
    resetDataDir(dir);
    expect(existsSync(path.join(dir, 'dynamodb'))).toBe(false);
    expect(existsSync(path.join(dir, 'sqs-s3'))).toBe(false);
    expect(readMeta(dir)).toEqual({});
    expect(existsSync(path.join(dir, 'notes.txt'))).toBe(true);
  });

  it('remembers the ports and the generated dev key, readable by its owner only', () => {
    writeMeta(dir, { ports: { dynamodb: 4000, aws: 4001 }, devApiKey: 'cjk_live_y' });
    expect(readMeta(dir)).toEqual({ ports: { dynamodb: 4000, aws: 4001 }, devApiKey: 'cjk_live_y' });
    expect(statSync(path.join(dir, 'local.json')).mode & 0o777).toBe(0o600);
  });
});

describe('the state file of a running service', () => {
  it('is ignored when absent, read when its process runs, refused when that process is gone', async () => {
    const file = path.join(dir, 'runtime.json');
    expect(readRunningState(file)).toBeUndefined();
    const state = { url: 'http://127.0.0.1:1', pid: process.pid, dynamodbEndpoint: '', awsEndpoint: '' };
    writeFileSync(file, JSON.stringify({ ...state, tableName: 't', env: {} }));
    expect(readRunningState(file)?.pid).toBe(process.pid);

    const gone = spawn(process.execPath, ['-e', '']);
    await new Promise((resolve) => gone.once('exit', resolve));
    writeFileSync(file, JSON.stringify({ ...state, pid: gone.pid, tableName: 't', env: {} }));
    expect(() => readRunningState(file)).toThrow(`(pid ${gone.pid}) is not running: start it with npm start`);
  });
});
