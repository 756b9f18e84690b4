export default async function globalTeardown(): Promise<void> {
  const child = globalThis.__EMULATORS__;
  if (!child || child.exitCode !== null) return;
  await new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}
