// Pure: how a share code's uses are counted without one hot document.
//
// A class of 500 guests may redeem one code within a minute, but Firestore
// sustains about one write per second on a single document. So a code's
// capacity is split over seat shards, share_codes/{code}/seats/{k}, each
// holding its own `capacity` (null when the code has no max_uses) and `used`.
// A redemption picks a shard at random and, in a transaction on that shard
// alone, takes a seat if `used < capacity`; when its shard is full it tries the
// others in turn. The shards' capacities add up to max_uses exactly and each is
// only ever taken inside a transaction, so max_uses holds exactly, while the
// writes spread over up to MAX_SEAT_SHARDS documents (32 shards ≈ 32 writes/s
// sustained, well over 500 a minute). `uses` is the sum of `used` over shards.

export const MAX_SEAT_SHARDS = 32;

/** How many shards a code gets: one per allowed use up to the maximum, the maximum when unlimited. */
export const seatShardCount = (maxUses: number | null): number =>
  maxUses === null ? MAX_SEAT_SHARDS : Math.max(1, Math.min(MAX_SEAT_SHARDS, maxUses));

/**
 * The capacity of each shard: max_uses split as evenly as possible (the first
 * `max_uses mod shards` get one more), or null for each when unlimited.
 */
export function seatShardCapacities(maxUses: number | null): Array<number | null> {
  const shards = seatShardCount(maxUses);
  if (maxUses === null) return Array.from({ length: shards }, () => null);
  if (!Number.isInteger(maxUses) || maxUses < 1) throw new RangeError('max_uses must be a positive integer');
  const base = Math.floor(maxUses / shards);
  const extra = maxUses % shards;
  return Array.from({ length: shards }, (_, k) => base + (k < extra ? 1 : 0));
}
