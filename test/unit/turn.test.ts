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
    const b = createTurnBatcher<number, number>(async (xs) => {
      sizes.push(xs.length);
      return xs;
    }, 4);
    await Promise.all(Array.from({ length: 10 }, (_, i) => b.add(i)));
    expect(sizes).toEqual([4, 4, 2]);
    const p = b.add(7);
    b.flush();
    expect(sizes).toEqual([4, 4, 2, 1]);
    expect(await p).toBe(7);
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
