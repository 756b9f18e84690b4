import { createRequire } from 'node:module';
import path from 'node:path';

/**
 * dynalite 4 reads every Query and Scan through a stream over an abstract-level iterator, and ends the
 * stream by calling the iterator's `return()`, which abstract-level 3 iterators do not have (they are ended
 * by `close()`). No iterator was ever closed: each one stayed open in its database, pinning LevelDB's
 * memtables and table files, for the life of the process. Under steady load the local service's memory grew
 * by ~20 MB a minute (bench/soak.ts) and was not given back. Giving every abstract-level iterator the
 * `return()` dynalite calls closes it when its stream ends or is destroyed.
 *
 * Applied to the abstract-level that dynalite's stores load (classic-level on disk, memory-level in memory),
 * found as Node finds it from dynalite's own dependencies. Returns how many iterator bases it patched.
 */
export const closeDynaliteIterators = (): number => {
  const fromProject = createRequire(path.join(process.cwd(), 'package.json'));
  const fromDynalite = createRequire(fromProject.resolve('dynalite/package.json'));
  const fromLevel = createRequire(fromDynalite.resolve('level/package.json'));
  const stores = [
    createRequire(fromLevel.resolve('classic-level/package.json')),
    createRequire(fromDynalite.resolve('memory-level/package.json')),
  ];
  let patched = 0;
  for (const store of stores) {
    const { AbstractIterator } = store('abstract-level') as { AbstractIterator: { prototype: object } };
    // The common base of abstract-level's iterators (entries, keys, values), which it does not export.
    const common = Object.getPrototypeOf(AbstractIterator.prototype) as { return?: unknown };
    if (typeof common.return === 'function') continue;
    Object.defineProperty(common, 'return', {
      configurable: true,
      writable: true,
      value(this: { close(): Promise<void> }) {
        return this.close();
      },
    });
    patched++;
  }
  return patched;
};
