import type { Timestamp } from 'firebase-admin/firestore';
import { errorText, log } from '../platform/log';
import { NetworkSet } from './cidr';
import { networksChangedSince } from './store';

/**
 * Every organization's registered networks, as this instance last read them.
 * Consulted on every request (the rate limiter, on-site-only tests), so it is
 * answered from memory: read whole once per instance, then refreshed in the
 * background with only the organizations whose networks changed since.
 */
export interface NetworkIndex {
  /** Whether `ip` is inside any organization's networks. */
  onAnyNetwork(ip: string): boolean;
  /** Whether `ip` is inside the networks of organization `clientId`. */
  onNetworkOf(clientId: string, ip: string): boolean;
}

/** A change made on another instance is seen here within REFRESH_MS plus one read (documented as at most 60 s). */
export const REFRESH_MS = 30_000;
/** Organizations with networks an instance holds; past it the newest changes are dropped, loudly. */
const MAX_ORGANIZATIONS = 10_000;

interface Loaded {
  byClient: Map<string, NetworkSet>;
  any: NetworkSet;
  /** The read time of the last refresh: the next reads only what changed after it. */
  since: Timestamp | undefined;
  loadedAtMs: number;
}

let loaded: Loaded | undefined;
let refreshing: Promise<Loaded> | undefined;

const indexOf = (state: Loaded): NetworkIndex => ({
  onAnyNetwork: (ip) => state.any.size > 0 && state.any.contains(ip),
  onNetworkOf: (clientId, ip) => state.byClient.get(clientId)?.contains(ip) ?? false,
});

async function refresh(previous: Loaded | undefined): Promise<Loaded> {
  const { changes, readTime } = await networksChangedSince(previous?.since);
  const byClient = new Map(previous?.byClient);
  for (const { clientId, networks } of changes) {
    if (networks.length === 0) byClient.delete(clientId);
    else if (byClient.has(clientId) || byClient.size < MAX_ORGANIZATIONS) byClient.set(clientId, new NetworkSet(networks));
    else log.error('Registered networks not applied: this instance holds the most organizations it keeps', { client_id: clientId, max: MAX_ORGANIZATIONS });
  }
  const any = changes.length === 0 && previous ? previous.any : new NetworkSet([...byClient.values()].flatMap((set) => set.cidrs));
  return { byClient, any, since: readTime, loadedAtMs: Date.now() };
}

function startRefresh(): Promise<Loaded> {
  refreshing ??= refresh(loaded)
    .then((next) => (loaded = next))
    .finally(() => (refreshing = undefined));
  return refreshing;
}

/**
 * The index as this instance knows it: at once when it was read less than
 * REFRESH_MS ago; otherwise still at once, with a refresh started behind it.
 * Only an instance's first call waits for a read; it rejects if that read fails
 * (callers decide whether that fails open or closed).
 */
export async function registeredNetworks(): Promise<NetworkIndex> {
  if (!loaded) return indexOf(await startRefresh());
  if (Date.now() - loaded.loadedAtMs >= REFRESH_MS) {
    startRefresh().catch((err) => log.warn('Registered networks could not be refreshed; the last ones read stay in use', { error: errorText(err) }));
  }
  return indexOf(loaded);
}

/** After this instance changed an organization's networks: its own requests see them at once. */
export function applyLocally(clientId: string, networks: string[]): void {
  if (!loaded) return;
  const byClient = new Map(loaded.byClient);
  if (networks.length === 0) byClient.delete(clientId);
  else byClient.set(clientId, new NetworkSet(networks));
  loaded = { ...loaded, byClient, any: new NetworkSet([...byClient.values()].flatMap((set) => set.cidrs)) };
}

/** Test hook: forget everything read (as a fresh instance would). */
export function forgetRegisteredNetworks(): void {
  loaded = undefined;
}
