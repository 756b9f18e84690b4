import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * The repository root: the nearest directory, from the working directory upwards, that holds
 * lib/resources.ts. Works the same under tsx (ESM, `cdk synth`) and jest (CommonJS), where `import.meta` and
 * `__dirname` are not both available.
 */
export const repoRoot = (from: string = process.cwd()): string => {
  let dir = from;
  for (;;) {
    if (existsSync(join(dir, 'lib', 'resources.ts')) && existsSync(join(dir, 'package.json'))) return dir;
    const parent = dirname(dir);
    if (parent === dir)
      throw new Error(`No repository root (a directory with lib/resources.ts) above ${from}`);
    dir = parent;
  }
};
