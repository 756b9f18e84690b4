import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

declare global {
  // Shared with the global teardown (same process).
  var __EMULATORS__: ChildProcess | undefined;
}

/**
 * Starts the embedded emulators once for the integration run (`bin/emulators.ts` in a child process, since
 * fauxqs is ESM-only) and exports their environment to the test workers.
 */
export default async function globalSetup(): Promise<void> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'bin/emulators.ts'], {
    cwd: process.cwd(),
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
  });
  globalThis.__EMULATORS__ = child;
  const line = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('emulators did not start within 60 s')), 60_000);
    child.once('exit', (code) => reject(new Error(`emulators exited with ${code}`)));
    createInterface({ input: child.stdout! }).once('line', (l) => {
      clearTimeout(timer);
      resolve(l);
    });
  });
  const { env, deadLetterQueueUrls } = JSON.parse(line) as {
    env: Record<string, string>;
    deadLetterQueueUrls: Record<string, string>;
  };
  Object.assign(process.env, env, {
    TEST_DLQ_URLS: JSON.stringify(deadLetterQueueUrls),
    AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
    POWERTOOLS_LOG_LEVEL: 'SILENT',
  });
}
