import { ProcessShared } from '../../../lambdas/adapters/process-shared';

/** Something made once a process and shared (issue 23: PaddleOCR's models kept loaded between jobs). */
describe('ProcessShared', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  const shared = (fail = 0) => {
    let made = 0;
    const disposed: number[] = [];
    let failures = fail;
    const value = new ProcessShared(
      async () => {
        if (failures-- > 0) throw new Error('could not load');
        return ++made;
      },
      async (v: number) => {
        disposed.push(v);
      },
      1000,
    );
    return { value, made: () => made, disposed };
  };

  /** Lets the idle timer and what it starts run. */
  const pass = async (ms: number) => {
    await jest.advanceTimersByTimeAsync(ms);
  };

  it('is made once for every holder, and kept while one of them holds it', async () => {
    const s = shared();
    await expect(s.value.take()).resolves.toBe(1);
    await expect(s.value.take()).resolves.toBe(1);
    s.value.letGo();
    await pass(5000);
    expect(s.disposed).toEqual([]);
    await expect(s.value.take()).resolves.toBe(1);
    expect(s.made()).toBe(1);
  });

  it('is disposed of once the idle time after the last holder lets go has passed, and made again after', async () => {
    const s = shared();
    await s.value.take();
    s.value.letGo();
    await pass(999);
    expect(s.disposed).toEqual([]);
    await pass(1);
    expect(s.disposed).toEqual([1]);
    await expect(s.value.take()).resolves.toBe(2);
  });

  it('is kept when taken again within the idle time', async () => {
    const s = shared();
    await s.value.take();
    s.value.letGo();
    await pass(600);
    await s.value.take();
    await pass(5000);
    expect(s.disposed).toEqual([]);
    s.value.letGo();
    await pass(1000);
    expect(s.disposed).toEqual([1]);
  });

  it('forgets a value that failed to be made: the next take tries again', async () => {
    const s = shared(1);
    await expect(s.value.take()).rejects.toThrow('could not load');
    s.value.letGo();
    await expect(s.value.take()).resolves.toBe(1);
  });

  it('is not disposed of now while someone holds it', async () => {
    const s = shared();
    await s.value.take();
    await expect(s.value.disposeNow()).resolves.toBe(false);
    s.value.letGo();
    await expect(s.value.disposeNow()).resolves.toBe(true);
    expect(s.disposed).toEqual([1]);
  });
});
