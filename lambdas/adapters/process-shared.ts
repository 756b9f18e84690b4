/**
 * Something made once a process and shared by whoever holds it (issue 23: PaddleOCR's loaded models, 0.6 s a
 * job to load): made on the first `take()`, kept while anyone holds it, and disposed of `idleMs` after the
 * last holder lets go, unless taken again meanwhile. Jobs one after the other (a warm Lambda, the local
 * runtime's worker) find it made; a process that reads nothing more gives its memory back. A `make()` that
 * fails is forgotten: the next `take()` tries again.
 */
export class ProcessShared<T> {
  private value: Promise<T> | undefined;
  private holders = 0;
  private idle: NodeJS.Timeout | undefined;

  constructor(
    private readonly make: () => Promise<T>,
    private readonly dispose: (value: T) => Promise<void>,
    private readonly idleMs: number,
  ) {}

  /** The shared value, with one more holder (who must `letGo()` once, whether this resolves or rejects). */
  take(): Promise<T> {
    clearTimeout(this.idle);
    this.idle = undefined;
    this.holders++;
    if (!this.value) {
      const made = this.make();
      this.value = made;
      made.catch(() => {
        if (this.value === made) this.value = undefined;
      });
    }
    return this.value;
  }

  /** One holder fewer; the last one starts the idle time. */
  letGo(): void {
    this.holders = Math.max(0, this.holders - 1);
    if (this.holders > 0 || !this.value || this.idle) return;
    // An idle value keeps nothing alive: a process with nothing else to do ends.
    this.idle = setTimeout(() => void this.disposeNow().catch(() => undefined), this.idleMs).unref();
  }

  /** Disposes of the value now if nobody holds it (true if it did). */
  async disposeNow(): Promise<boolean> {
    clearTimeout(this.idle);
    this.idle = undefined;
    const value = this.value;
    if (this.holders > 0 || !value) return false;
    this.value = undefined;
    const made = await value.catch(() => undefined);
    if (made !== undefined) await this.dispose(made);
    return true;
  }
}
