import type { FuzzSeedGroup } from './types';

// Seeds for the issue-6 endpoints of this group (filled in with them).
export const seeds: FuzzSeedGroup = { prepare: async () => undefined, seeds: [] };
