// Pure: how many membership changes of one class this instance runs at once.
// Each is a transaction on the class document (its member_count): fifty sent at
// once would mostly lose to one another's locks and run again and again, so
// this instance lets a few through per class and queues the rest, in order.
// It only spares the instance its own contention: the bounds are still
// counted in each transaction, which is what holds them across instances.

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
