import { createHash, randomUUID } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';

/**
 * Builds the console with Vite when its sources changed since the last build, and answers the directory of
 * an up-to-date build. Nothing built is committed: `npm start` (and the CDK bundling, and
 * `npm run build:console`) call this, so a fresh `npm ci` is all a machine needs.
 *
 * Builds live in node_modules/.cache/catalog-console/<id>/, each with the list of its input files and their
 * digests (`inputs.json`, written last, so a half-written build is never used). A build is current when
 * every input still has its digest; package-lock.json stands for everything under node_modules. Builds are
 * never changed once written, so two processes starting at once never read a half-replaced one.
 */

const INPUTS = 'inputs.json';
const KEEP_BUILDS = 3;

interface Inputs {
  readonly files: Record<string, string>;
}

const digest = (file: string): string | null => {
  try {
    return createHash('sha256').update(readFileSync(file)).digest('hex');
  } catch {
    return null;
  }
};

const cacheDir = (root: string) => path.join(root, 'node_modules', '.cache', 'catalog-console');

const isCurrent = (root: string, dir: string): boolean => {
  let inputs: Inputs;
  try {
    inputs = JSON.parse(readFileSync(path.join(dir, INPUTS), 'utf8')) as Inputs;
  } catch {
    return false;
  }
  return Object.entries(inputs.files).every(([file, hash]) => digest(path.join(root, file)) === hash);
};

/** Completed builds, newest first. */
const builds = (root: string): string[] => {
  const dir = cacheDir(root);
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .map((name) => path.join(dir, name))
    .filter((d) => existsSync(path.join(d, INPUTS)))
    .sort((a, b) => statSync(path.join(b, INPUTS)).mtimeMs - statSync(path.join(a, INPUTS)).mtimeMs);
};

/** The directory of a current build, or undefined when the sources changed since the last one. */
export const currentConsoleBuild = (root: string): string | undefined =>
  builds(root).find((dir) => isCurrent(root, dir));

/** Runs Vite (console/vite.config.ts) into a new build directory and records its inputs. */
export const buildConsole = async (root: string): Promise<string> => {
  const { build } = await import('vite');
  const target = path.join(cacheDir(root), `${Date.now().toString(36)}-${randomUUID().slice(0, 8)}`);
  const staging = `${target}.tmp`;
  mkdirSync(cacheDir(root), { recursive: true });
  const modules = new Set<string>();
  try {
    await build({
      configFile: path.join(root, 'console', 'vite.config.ts'),
      build: { outDir: staging, emptyOutDir: true },
      plugins: [
        {
          name: 'catalog-console:record-inputs',
          buildEnd() {
            for (const id of this.getModuleIds()) modules.add(id);
          },
        },
      ],
    });
    const files: Record<string, string> = {};
    const record = (absolute: string) => {
      const hash = digest(absolute);
      if (hash) files[path.relative(root, absolute)] = hash;
    };
    for (const id of modules) {
      const file = id.split('?')[0]!;
      if (!path.isAbsolute(file) || file.includes(`${path.sep}node_modules${path.sep}`)) continue;
      if (file.startsWith(root)) record(file);
    }
    for (const file of [
      'console/index.html',
      'console/vite.config.ts',
      'console/site/build.ts',
      'package-lock.json',
    ])
      record(path.join(root, file));
    writeFileSync(path.join(staging, INPUTS), JSON.stringify({ files } satisfies Inputs, null, 2));
    renameSync(staging, target);
  } catch (error) {
    rmSync(staging, { recursive: true, force: true });
    throw error;
  }
  for (const old of builds(root).slice(KEEP_BUILDS)) rmSync(old, { recursive: true, force: true });
  return target;
};

/** An up-to-date build of the console: the last one if its sources did not change, else a new one. */
export const ensureConsoleBuild = async (root: string): Promise<{ dir: string; built: boolean }> => {
  const current = currentConsoleBuild(root);
  if (current) return { dir: current, built: false };
  return { dir: await buildConsole(root), built: true };
};
