// Keys already known to be over their limit for the current window. Answering
// those from memory keeps a flood from turning into Firestore writes.
const blockedUntil = new Map<string, number>();
const MAX_ENTRIES = 10_000;

export function isBlocked(key: string, nowMs: number): number | undefined {
  const until = blockedUntil.get(key);
  if (until === undefined) return undefined;
  if (until <= nowMs) {
    blockedUntil.delete(key);
    return undefined;
  }
  return until;
}

export function block(key: string, untilMs: number): void {
  if (blockedUntil.size >= MAX_ENTRIES) {
    const now = Date.now();
    for (const [k, until] of blockedUntil) if (until <= now) blockedUntil.delete(k);
    if (blockedUntil.size >= MAX_ENTRIES) blockedUntil.delete(blockedUntil.keys().next().value!);
  }
  blockedUntil.set(key, untilMs);
}
