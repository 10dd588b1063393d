// Keys already known to be over their limit for the current window. Answering
// those from memory keeps a flood from turning into Firestore writes. One per
// limiter: apps served in one process stay independent instances.
export interface Block {
  untilMs: number;
  message: string;
}

export interface BlockedKeys {
  active(key: string, nowMs: number): Block | undefined;
  /** `message` says why, in words that stay true until `untilMs`. */
  block(key: string, untilMs: number, message: string): void;
}

const MAX_ENTRIES = 10_000;

export function blockedKeys(): BlockedKeys {
  const blocks = new Map<string, Block>();
  return {
    active(key, nowMs) {
      const found = blocks.get(key);
      if (found === undefined) return undefined;
      if (found.untilMs <= nowMs) {
        blocks.delete(key);
        return undefined;
      }
      return found;
    },
    block(key, untilMs, message) {
      if (blocks.size >= MAX_ENTRIES) {
        const now = Date.now();
        for (const [k, b] of blocks) if (b.untilMs <= now) blocks.delete(k);
        if (blocks.size >= MAX_ENTRIES) blocks.delete(blocks.keys().next().value!);
      }
      blocks.set(key, { untilMs, message });
    },
  };
}
