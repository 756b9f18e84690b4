/**
 * Items of work (a page's lines, or stacks of them) shared between a first reader and a helper on another
 * vCPU (paddle-recognizer.ts, tesseract-recognizer.ts): each takes the next item as it finishes one, in the
 * order given. The helper may still be starting (a promise of it) or absent. The first reader's failure fails
 * the whole; a helper that fails gives its item back and stops (after `helperFailed`), and the first reader
 * reads what is left. `stop` ends the reading early (a deadline passed: the caller fails the page).
 * `helperDepth` items are handed to the helper at once (it queues them), so that it never waits for the
 * next while the first reader is busy.
 */
export const shareWork = async (
  items: readonly number[],
  first: (item: number) => Promise<void>,
  helper: Promise<((item: number) => Promise<void>) | undefined> | undefined,
  options: {
    readonly helperFailed?: () => Promise<void>;
    readonly stop?: () => boolean;
    readonly helperDepth?: number;
  } = {},
): Promise<void> => {
  const queue = [...items];
  const next = (): number | undefined => (options.stop?.() ? undefined : queue.shift());
  /** The helper has failed: none of its lanes takes another item (one it took would be lost). */
  let helperGone = false;
  const readAll = async (read: (item: number) => Promise<void>, isHelper: boolean): Promise<void> => {
    while (!(isHelper && helperGone)) {
      const item = next();
      if (item === undefined) return;
      try {
        await read(item);
      } catch (error) {
        if (!isHelper) throw error;
        queue.unshift(item);
        if (!helperGone) {
          helperGone = true;
          await options.helperFailed?.();
        }
        return;
      }
    }
  };
  const depth = Math.max(1, options.helperDepth ?? 1);
  await Promise.all([
    readAll(first, false),
    helper?.then((read) =>
      read ? Promise.all(Array.from({ length: depth }, () => readAll(read, true))) : undefined,
    ),
  ]);
  // An item the helper gave back after the first reader had finished.
  await readAll(first, false);
};
