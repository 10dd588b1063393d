// Pure: how many tasks on one key (a document) this instance runs at once.
// Transactions on one document sent together mostly lose to one another's
// locks and run again and again; queued here, in order, they do not. It only
// spares the instance its own contention: what must hold across instances is
// still decided inside each transaction.

/** At most `limit` tasks per key at once; the others wait their turn, first come first served. */
export function keyedGate(limit: number) {
  const lanes = new Map<string, { running: number; waiting: Array<() => void> }>();
  return async function run<T>(key: string, task: () => Promise<T>): Promise<T> {
    let lane = lanes.get(key);
    if (!lane) lanes.set(key, (lane = { running: 0, waiting: [] }));
    if (lane.running < limit) lane.running += 1;
    else await new Promise<void>((resolve) => lane.waiting.push(resolve));
    try {
      return await task();
    } finally {
      const next = lane.waiting.shift();
      // The slot passes to the next in line; the last one out closes the lane.
      if (next) next();
      else if ((lane.running -= 1) === 0) lanes.delete(key);
    }
  };
}
