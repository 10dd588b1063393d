import type { VersionSums } from './statistics';

// Pure: the Firestore documents the analytics feature owns (where they live: firestore/paths.ts).

/** clients/{c}/tests/{t}/versions/{v}/stats_shards/{k}: a share of the version's running sums, written as increments (absent fields are zero). */
export type StoredStatsShard = Partial<VersionSums>;

/** clients/{c}/tests/{t}/versions/{v}/stats_leases/recompute: a recompute's claim on the version, held until `expires_at` unless released. */
export interface StoredRecomputeLease {
  expires_at: string;
}
