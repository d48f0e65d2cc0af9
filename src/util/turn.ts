/**
 * Group commit: the items requested during one turn of the event loop are handed to `run` together
 * (in arrival order, at most `max` at a time), and each caller gets its own outcome. `run` returns
 * one outcome per item: a value, or an Error for that item alone; when `run` itself throws, every
 * item of the batch fails with that error.
 */
export interface TurnBatcher<I, O> {
  add(item: I): Promise<O>;
  /** Hands the pending items to `run` now (e.g. before closing a connection). */
  flush(): void;
}

export function createTurnBatcher<I, O>(run: (items: I[]) => Promise<(O | Error)[]> | (O | Error)[], max = 256): TurnBatcher<I, O> {
  interface Pending {
    item: I;
    resolve: (o: O) => void;
    reject: (e: unknown) => void;
  }
  let pending: Pending[] = [];
  let scheduled = false;

  const send = async (batch: Pending[]) => {
    let outcomes: (O | Error)[];
    try {
      outcomes = await run(batch.map((p) => p.item));
      if (outcomes.length !== batch.length) throw new Error(`batch: ${outcomes.length} outcomes for ${batch.length} items`);
    } catch (error) {
      for (const p of batch) p.reject(error);
      return;
    }
    batch.forEach((p, i) => {
      const o = outcomes[i] as O | Error;
      if (o instanceof Error) p.reject(o);
      else p.resolve(o);
    });
  };
  const flush = () => {
    scheduled = false;
    const all = pending;
    pending = [];
    for (let i = 0; i < all.length; i += max) void send(all.slice(i, i + max));
  };
  return {
    add(item) {
      return new Promise<O>((resolve, reject) => {
        pending.push({ item, resolve, reject });
        if (!scheduled) {
          scheduled = true;
          setImmediate(flush);
        }
      });
    },
    flush,
  };
}

/**
 * A gate that opens once per turn of the event loop: the returned function answers true on its
 * first call in a turn and false until the next turn. For checks whose cost should be shared by
 * everything handled in the same turn (e.g. SQLite's `PRAGMA data_version`, which opens a read
 * transaction): a change made by another process reaches this one through I/O, i.e. in a later turn.
 */
export function oncePerTurn(): () => boolean {
  let open = true;
  const reopen = () => {
    open = true;
  };
  return () => {
    if (!open) return false;
    open = false;
    setImmediate(reopen);
    return true;
  };
}
