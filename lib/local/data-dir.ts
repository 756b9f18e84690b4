import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';

/**
 * The local runtime's state on disk (SPEC 10): `LOCAL_DATA_DIR`, `.local/data` by default.
 *
 *   .lock      held (an exclusive SQLite lock) by the one process using the directory
 *   dynamodb/  dynalite's LevelDB: jobs, exports, files, keys, idempotency records
 *   sqs-s3/    fauxqs's SQLite: queues with their ready, delayed and in-flight messages; buckets and objects
 *   local.json the emulators' ports (kept, so signed URLs stay valid across a restart) and the seeded dev key
 */
export const DATA_DIR_ENTRIES = { dynamodb: 'dynamodb', sqsS3: 'sqs-s3', meta: 'local.json' } as const;

export const defaultDataDir = (env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): string =>
  path.resolve(cwd, env.LOCAL_DATA_DIR || path.join('.local', 'data'));

export class DataDirInUseError extends Error {
  constructor(readonly dataDir: string) {
    super(
      `${dataDir} is in use by another local service (npm start): stop it first, ` +
        'or point LOCAL_DATA_DIR somewhere else.',
    );
    this.name = 'DataDirInUseError';
  }
}

export interface DataDirLock {
  release(): void;
}

/**
 * Takes the directory for this process. The lock is an OS file lock (SQLite's), so the kernel drops it when
 * the process dies however it dies: holding it proves that no process which used this state before is still
 * running, which is what lets the runtime hand back the work a crashed process had in hand.
 */
export const lockDataDir = (dataDir: string): DataDirLock => {
  mkdirSync(dataDir, { recursive: true });
  const db = new DatabaseSync(path.join(dataDir, '.lock'));
  try {
    db.exec('PRAGMA locking_mode = EXCLUSIVE; BEGIN EXCLUSIVE;');
  } catch (error) {
    db.close();
    if ((error as { errcode?: number }).errcode === 5) throw new DataDirInUseError(dataDir);
    throw error;
  }
  return { release: () => db.close() };
};

/**
 * `npm start -- --reset`: forgets everything the runtime keeps. Removes only the entries it writes itself
 * (never the whole directory: LOCAL_DATA_DIR may point anywhere), with the lock held.
 */
export const resetDataDir = (dataDir: string): void => {
  for (const entry of Object.values(DATA_DIR_ENTRIES)) {
    rmSync(path.join(dataDir, entry), { recursive: true, force: true });
  }
};

/** What the runtime remembers between runs besides the emulators' own data. */
export interface LocalMeta {
  readonly ports?: {
    readonly dynamodb?: number;
    readonly aws?: number;
    readonly storage?: number;
    /** The storage front's port as runs before it served downloads named it. */
    readonly uploadForm?: number;
  };
  /** The dev client's key when npm start generated it (DEV_API_KEY unset): the same key after a restart. */
  readonly devApiKey?: string;
}

export const readMeta = (dataDir: string): LocalMeta => {
  const file = path.join(dataDir, DATA_DIR_ENTRIES.meta);
  if (!existsSync(file)) return {};
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as LocalMeta;
  } catch {
    return {};
  }
};

/** Written beside and renamed over the old file, so that a crash leaves the old or the new one, whole. */
export const writeMeta = (dataDir: string, meta: LocalMeta): void => {
  const file = path.join(dataDir, DATA_DIR_ENTRIES.meta);
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(meta, null, 2)}\n`, { mode: 0o600 });
  chmodSync(temporary, 0o600);
  renameSync(temporary, file);
};
