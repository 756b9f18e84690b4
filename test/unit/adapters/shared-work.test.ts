import { shareWork } from '../../../lambdas/adapters/shared-work';

// The work sharing of the two OCR readers (paddle-recognizer.ts, tesseract-recognizer.ts) on fake readers.
describe('shareWork', () => {
  const tick = () => new Promise<void>((resolve) => setImmediate(resolve));

  it('has each reader take the next item as it finishes one, every item read once', async () => {
    const by = new Map<number, string>();
    const reader = (name: string) => async (item: number) => {
      await tick();
      by.set(item, name);
    };
    await shareWork([0, 1, 2, 3, 4, 5], reader('first'), Promise.resolve(reader('helper')));
    expect([...by.keys()].sort()).toEqual([0, 1, 2, 3, 4, 5]);
    expect(new Set(by.values())).toEqual(new Set(['first', 'helper']));
  });

  it('gives a failed helper item back to the first reader, once the helper has been let go', async () => {
    const read: number[] = [];
    const helperFailed = jest.fn(async () => undefined);
    await shareWork(
      [0, 1, 2, 3],
      async (item) => {
        await tick();
        read.push(item);
      },
      Promise.resolve(async () => {
        throw new Error('the thread crashed');
      }),
      { helperFailed },
    );
    expect(read.sort()).toEqual([0, 1, 2, 3]);
    expect(helperFailed).toHaveBeenCalledTimes(1);
  });

  it("fails with the first reader's failure, and stops taking items when told to", async () => {
    await expect(
      shareWork([0, 1], async () => Promise.reject(new Error('no engine')), undefined),
    ).rejects.toThrow('no engine');
    const read: number[] = [];
    await shareWork([0, 1, 2], async (item) => void read.push(item), undefined, {
      stop: () => read.length >= 2,
    });
    expect(read).toEqual([0, 1]);
  });

  it('hands the helper helperDepth items at once, each read once', async () => {
    let held = 0;
    let mostHeld = 0;
    const read: number[] = [];
    const helper = async (item: number) => {
      held++;
      mostHeld = Math.max(mostHeld, held);
      await tick();
      await tick();
      held--;
      read.push(item);
    };
    await shareWork(
      [0, 1, 2, 3, 4, 5, 6, 7],
      async (item) => {
        await tick();
        await tick();
        await tick();
        read.push(item);
      },
      Promise.resolve(helper),
      { helperDepth: 2 },
    );
    expect(mostHeld).toBe(2);
    expect(read.sort()).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
  });

  it('lets a helper holding several items go once, its items given back', async () => {
    const read: number[] = [];
    const helperFailed = jest.fn(async () => undefined);
    await shareWork(
      [0, 1, 2, 3, 4],
      async (item) => {
        await tick();
        read.push(item);
      },
      Promise.resolve(async () => {
        await tick();
        throw new Error('the thread crashed');
      }),
      { helperFailed, helperDepth: 3 },
    );
    expect(read.sort()).toEqual([0, 1, 2, 3, 4]);
    expect(helperFailed).toHaveBeenCalledTimes(1);
  });

  it("loses no item when one of the helper's lanes fails while another is reading", async () => {
    const read: number[] = [];
    let calls = 0;
    await shareWork(
      [0, 1, 2, 3, 4, 5],
      async (item) => {
        await tick();
        await tick();
        await tick();
        read.push(item);
      },
      Promise.resolve(async (item: number) => {
        const call = calls++;
        await tick();
        if (call === 0) throw new Error('the thread crashed');
        await tick();
        read.push(item);
      }),
      { helperDepth: 2 },
    );
    expect(read.sort()).toEqual([0, 1, 2, 3, 4, 5]);
  });
});
