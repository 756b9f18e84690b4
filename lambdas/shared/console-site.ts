/** Environment variable of the console-site function: space-separated origins of the object store. */
export const CONSOLE_STORAGE_ORIGINS = 'CONSOLE_STORAGE_ORIGINS';

/**
 * The object store origins the console may load sources from (its Content-Security-Policy names them), read
 * once from the function's environment, here and nowhere else.
 */
export const consoleStorageOrigins = (env: NodeJS.ProcessEnv = process.env): string[] =>
  (env[CONSOLE_STORAGE_ORIGINS] ?? '')
    .split(/\s+/)
    .filter((origin) => /^https?:\/\/[A-Za-z0-9.-]+(:\d+)?$/.test(origin));
