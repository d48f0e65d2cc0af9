/**
 * Group commit: the items requested during one turn of the event loop are handed to `run` together
 * (in arrival order, at most `max` at a time), and each caller gets its own outcome. `run` returns
 * one outcome per item: a value, or an Error for that item alone; when `run` itself throws, every
 * item of the batch fails with that error.
 *
 * With `maxInFlight` (for runs that wait on I/O, such as a Redis script call), no new run starts
 * while that many are unfinished: the items requested meanwhile wait and go together as soon as one
 * finishes. An idle batcher sends at the end of the turn as before (no added latency); a busy one
 * sends fewer, larger batches, so the cost of a call (its socket write and read, the client's command
 * handling) is shared by more requests. Batches still start in arrival order.
 */
export interface TurnBatcher<I, O> {
  add(item: I): Promise<O>;
  /** Hands the pending items to `run` now (e.g. before closing a connection), in flight or not. */
  flush(): void;
}

export interface TurnBatcherOptions {
  /** Largest batch handed to one run (default 256). */
  max?: number;
  /** Most unfinished runs at a time (default: unbounded). */
  maxInFlight?: number;
}

export function createTurnBatcher<I, O>(run: (items: I[]) => Promise<(O | Error)[]> | (O | Error)[], options: TurnBatcherOptions = {}): TurnBatcher<I, O> {
  const max = options.max ?? 256;
  const maxInFlight = options.maxInFlight ?? Infinity;
  if (!(max >= 1) || !(maxInFlight >= 1)) throw new RangeError('batcher: max and maxInFlight must be at least 1');
  interface Pending {
    item: I;
    resolve: (o: O) => void;
    reject: (e: unknown) => void;
  }
  const pending: Pending[] = [];
  let scheduled = false;
  let inFlight = 0;

  const send = async (batch: Pending[]) => {
    inFlight++;
    let outcomes: (O | Error)[];
    try {
      outcomes = await run(batch.map((p) => p.item));
      if (outcomes.length !== batch.length) throw new Error(`batch: ${outcomes.length} outcomes for ${batch.length} items`);
    } catch (error) {
      for (const p of batch) p.reject(error);
      return;
    } finally {
      inFlight--;
      // Items that waited for a free slot go now, together.
      if (!scheduled && pending.length > 0 && inFlight < maxInFlight) sendAvailable();
    }
    batch.forEach((p, i) => {
      const o = outcomes[i] as O | Error;
      if (o instanceof Error) p.reject(o);
      else p.resolve(o);
    });
  };
  /** Starts runs for the pending items while slots are free (all of them when `force`). */
  const sendAvailable = (force = false) => {
    while (pending.length > 0 && (force || inFlight < maxInFlight)) void send(pending.splice(0, max));
  };
  const onTurnEnd = () => {
    scheduled = false;
    sendAvailable();
  };
  return {
    add(item) {
      return new Promise<O>((resolve, reject) => {
        pending.push({ item, resolve, reject });
        if (!scheduled && inFlight < maxInFlight) {
          scheduled = true;
          setImmediate(onTurnEnd);
        }
      });
    },
    flush() {
      sendAvailable(true);
    },
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
