import { existsSync, readFileSync } from 'node:fs';

/** What a running `npm start` writes to LOCAL_STATE_FILE (.local/runtime.json) for the operator commands. */
export interface LocalState {
  readonly url: string;
  readonly pid: number;
  readonly dynamodbEndpoint: string;
  readonly awsEndpoint: string;
  readonly tableName: string;
  readonly env: Record<string, string>;
}

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/**
 * The running local service's state file, undefined when there is none, or an error naming the process that
 * wrote it when that process is gone (a crash leaves the file behind; the next `npm start` rewrites it).
 */
export const readRunningState = (file: string): LocalState | undefined => {
  if (!existsSync(file)) return undefined;
  const state = JSON.parse(readFileSync(file, 'utf8')) as LocalState;
  if (!alive(state.pid)) {
    throw new Error(
      `The local service that wrote ${file} (pid ${state.pid}) is not running: start it with npm start.`,
    );
  }
  return state;
};
