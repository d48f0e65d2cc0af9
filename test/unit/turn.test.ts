import { describe, expect, it } from 'vitest';
import { createTurnBatcher, oncePerTurn } from '../../src/util/turn.ts';

describe('turn batcher (group commit)', () => {
  it('hands the items of one turn to one run, in order, and answers each caller', async () => {
    const runs: number[][] = [];
    const b = createTurnBatcher<number, number>((xs) => {
      runs.push(xs);
      return xs.map((x) => x * 10);
    });
    const first = await Promise.all([1, 2, 3].map((x) => b.add(x)));
    const second = await b.add(4);
    expect(first).toEqual([10, 20, 30]);
    expect(second).toBe(40);
    expect(runs).toEqual([[1, 2, 3], [4]]);
  });

  it('fails one item alone when run returns an Error for it, and the whole batch when run throws', async () => {
    const b = createTurnBatcher<number, number>((xs) => {
      if (xs.includes(99)) throw new Error('boom');
      return xs.map((x) => (x < 0 ? new RangeError(`negative ${x}`) : x));
    });
    const r = await Promise.allSettled([b.add(1), b.add(-1), b.add(2)]);
    expect(r.map((x) => x.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((r[1] as PromiseRejectedResult).reason).toBeInstanceOf(RangeError);
    const all = await Promise.allSettled([b.add(1), b.add(99)]);
    expect(all.map((x) => x.status)).toEqual(['rejected', 'rejected']);
  });

  it('splits a large turn into runs of at most max items; flush() sends at once', async () => {
    const sizes: number[] = [];
    const b = createTurnBatcher<number, number>(
      async (xs) => {
        sizes.push(xs.length);
        return xs;
      },
      { max: 4 },
    );
    await Promise.all(Array.from({ length: 10 }, (_, i) => b.add(i)));
    expect(sizes).toEqual([4, 4, 2]);
    const p = b.add(7);
    b.flush();
    expect(sizes).toEqual([4, 4, 2, 1]);
    expect(await p).toBe(7);
  });
});

describe('turn batcher with maxInFlight', () => {
  it('sends nothing new while a run is unfinished, then everything that waited as one batch', async () => {
    const runs: number[][] = [];
    const release: (() => void)[] = [];
    const b = createTurnBatcher<number, number>(
      async (xs) => {
        runs.push(xs);
        await new Promise<void>((r) => release.push(r));
        return xs;
      },
      { maxInFlight: 1 },
    );
    const first = b.add(1);
    await new Promise((r) => setImmediate(r));
    expect(runs).toEqual([[1]]);
    // Three more turns' worth of items while the first run is unfinished.
    const waiting = [b.add(2), b.add(3)];
    await new Promise((r) => setImmediate(r));
    waiting.push(b.add(4));
    await new Promise((r) => setImmediate(r));
    expect(runs).toEqual([[1]]);
    release.shift()!();
    expect(await first).toBe(1);
    expect(runs).toEqual([[1], [2, 3, 4]]);
    release.shift()!();
    expect(await Promise.all(waiting)).toEqual([2, 3, 4]);
    // Idle again: the next item goes at the end of its turn.
    const last = b.add(5);
    await new Promise((r) => setImmediate(r));
    expect(runs).toEqual([[1], [2, 3, 4], [5]]);
    release.shift()!();
    expect(await last).toBe(5);
  });

  it('a failed run frees its slot for the items that waited', async () => {
    const runs: number[][] = [];
    let fail = true;
    const b = createTurnBatcher<number, number>(
      async (xs) => {
        runs.push(xs);
        await new Promise((r) => setImmediate(r));
        if (fail) {
          fail = false;
          throw new Error('down');
        }
        return xs;
      },
      { maxInFlight: 1 },
    );
    const a = b.add(1);
    await new Promise((r) => setImmediate(r));
    const c = b.add(2); // waits: the slot is taken
    expect(runs).toEqual([[1]]);
    await expect(a).rejects.toThrow('down');
    expect(await c).toBe(2);
    expect(runs).toEqual([[1], [2]]);
  });

  it('flush() sends even when the slot is taken; maxInFlight must be at least 1', async () => {
    const runs: number[][] = [];
    const b = createTurnBatcher<number, number>(
      async (xs) => {
        runs.push(xs);
        await new Promise((r) => setImmediate(r));
        return xs;
      },
      { maxInFlight: 1 },
    );
    const a = b.add(1);
    await new Promise((r) => setImmediate(r));
    const c = b.add(2);
    b.flush();
    expect(runs).toEqual([[1], [2]]);
    expect(await Promise.all([a, c])).toEqual([1, 2]);
    expect(() => createTurnBatcher(async (xs: number[]) => xs, { maxInFlight: 0 })).toThrow(RangeError);
  });
});

describe('oncePerTurn', () => {
  it('opens once per turn of the event loop', async () => {
    const first = oncePerTurn();
    expect([first(), first(), first()]).toEqual([true, false, false]);
    await new Promise((r) => setImmediate(r));
    expect([first(), first()]).toEqual([true, false]);
  });
});
