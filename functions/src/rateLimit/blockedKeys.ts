// Keys already known to be over their limit for the current window. Answering
// those from memory keeps a flood from turning into Firestore writes.
export interface Block {
  untilMs: number;
  message: string;
}

const blocks = new Map<string, Block>();
const MAX_ENTRIES = 10_000;

export function activeBlock(key: string, nowMs: number): Block | undefined {
  const found = blocks.get(key);
  if (found === undefined) return undefined;
  if (found.untilMs <= nowMs) {
    blocks.delete(key);
    return undefined;
  }
  return found;
}

/** `message` says why, in words that stay true until `untilMs`. */
export function block(key: string, untilMs: number, message: string): void {
  if (blocks.size >= MAX_ENTRIES) {
    const now = Date.now();
    for (const [k, b] of blocks) if (b.untilMs <= now) blocks.delete(k);
    if (blocks.size >= MAX_ENTRIES) blocks.delete(blocks.keys().next().value!);
  }
  blocks.set(key, { untilMs, message });
}
