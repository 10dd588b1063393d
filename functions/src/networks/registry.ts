import type { Timestamp } from 'firebase-admin/firestore';
import { errorText, log } from '../platform';
import { NetworkSet, parseNetwork } from './cidr';
import { networksChangedSince, type NetworksChange } from './store';

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
  /**
   * The updated_at of what this instance holds for each organization (one
   * whose networks were emptied too): a change is applied only over an older
   * one, whichever way it came (a refresh, or this instance's own write).
   */
  versions: Map<string, Timestamp>;
  any: NetworkSet;
  /** The read time of the last refresh: the next reads only what changed after it. */
  since: Timestamp | undefined;
  loadedAtMs: number;
}

/** A change as the registry applies it; without `updatedAt` it is applied whatever this instance knew. */
type Change = Omit<NetworksChange, 'updatedAt'> & { updatedAt?: Timestamp };

/**
 * The networks of a document as the API would have stored them. One edited in
 * the console may hold a typo, a network wider than the bounds or no list at
 * all: those are left out (logged), and never stop the organizations around them
 * from being read (a throw here would fail every refresh of every instance).
 */
function usableNetworks(clientId: string, networks: unknown): string[] {
  if (!Array.isArray(networks)) {
    log.error('Registered networks ignored: the document holds no list of networks', { client_id: clientId });
    return [];
  }
  const usable: string[] = [];
  for (const network of networks) {
    const verdict = typeof network === 'string' ? parseNetwork(network) : undefined;
    if (verdict?.ok) usable.push(verdict.cidr);
    else
      log.error('A registered network is ignored: the API would not accept it', {
        client_id: clientId,
        network: String(network).slice(0, 100),
        why: verdict?.message ?? 'not text',
      });
  }
  return usable;
}

const EMPTY: Loaded = {
  byClient: new Map(),
  versions: new Map(),
  any: new NetworkSet([]),
  since: undefined,
  loadedAtMs: 0,
};

let loaded: Loaded | undefined;
let refreshing: Promise<Loaded> | undefined;
/** Bumped by forgetRegisteredNetworks: a read begun before it lands nowhere. */
let generation = 0;
/** This instance's own writes made while its first read was under way, applied when that read lands. */
let writtenDuringFirstRead: Change[] = [];

const indexOf = (state: Loaded): NetworkIndex => ({
  onAnyNetwork: (ip) => state.any.size > 0 && state.any.contains(ip),
  onNetworkOf: (clientId, ip) => state.byClient.get(clientId)?.contains(ip) ?? false,
});

const notOlder = (a: Timestamp, b: Timestamp): boolean =>
  a.seconds > b.seconds || (a.seconds === b.seconds && a.nanoseconds >= b.nanoseconds);

/** `state` with `changes` applied, each only over an older version of its organization. */
function withChanges(state: Loaded, changes: readonly Change[]): Pick<Loaded, 'byClient' | 'versions' | 'any'> {
  const byClient = new Map(state.byClient);
  const versions = new Map(state.versions);
  let applied = 0;
  for (const { clientId, networks: stored, updatedAt } of changes) {
    const known = versions.get(clientId);
    if (known && updatedAt && !notOlder(updatedAt, known)) continue;
    if (updatedAt) versions.set(clientId, updatedAt);
    else versions.delete(clientId);
    applied += 1;
    const networks = usableNetworks(clientId, stored);
    if (networks.length === 0) byClient.delete(clientId);
    else if (byClient.has(clientId) || byClient.size < MAX_ORGANIZATIONS)
      byClient.set(clientId, new NetworkSet(networks));
    else
      log.error('Registered networks not applied: this instance holds the most organizations it keeps', {
        client_id: clientId,
        max: MAX_ORGANIZATIONS,
      });
  }
  const any = applied === 0 ? state.any : new NetworkSet([...byClient.values()].flatMap((set) => set.cidrs));
  return { byClient, versions, any };
}

function startRefresh(): Promise<Loaded> {
  if (refreshing) return refreshing;
  const started = generation;
  const current: Promise<Loaded> = networksChangedSince(loaded?.since)
    .then(({ changes, readTime }) => {
      // Applied to the index as it is when the read lands, not as it was when it began: this instance's own writes meanwhile stay.
      const own = loaded ? [] : writtenDuringFirstRead;
      const next: Loaded = {
        ...withChanges(loaded ?? EMPTY, [...changes, ...own]),
        since: readTime,
        loadedAtMs: Date.now(),
      };
      if (started !== generation) return next;
      writtenDuringFirstRead = [];
      return (loaded = next);
    })
    .finally(() => {
      if (refreshing === current) refreshing = undefined;
    });
  refreshing = current;
  return current;
}

/**
 * The index as this instance knows it: at once when it was read less than
 * REFRESH_MS ago; otherwise still at once, with a refresh started behind it.
 * Only an instance's first call waits for a read; it rejects if that read fails
 * (callers decide whether that fails open or closed).
 */
export async function registeredNetworks(): Promise<NetworkIndex> {
  const now = Date.now();
  // After a failed read, the next waits RETRY_AFTER_FAILURE_MS: an outage is not met with a read per request.
  const backingOff = now - lastFailureMs < RETRY_AFTER_FAILURE_MS;
  if (!loaded) {
    if (backingOff && !refreshing) throw new Error('Registered networks unreadable: the last read failed moments ago');
    return indexOf(await recordingFailure(startRefresh()));
  }
  if (now - loaded.loadedAtMs >= REFRESH_MS && !backingOff) {
    recordingFailure(startRefresh()).catch((err) =>
      log.warn('Registered networks could not be refreshed; the last ones read stay in use', { error: errorText(err) }),
    );
  }
  return indexOf(loaded);
}

const RETRY_AFTER_FAILURE_MS = 5_000;
let lastFailureMs = Number.NEGATIVE_INFINITY;

function recordingFailure<T>(read: Promise<T>): Promise<T> {
  return read.catch((err: unknown) => {
    lastFailureMs = Date.now();
    throw err;
  });
}

/**
 * After this instance changed an organization's networks: its own requests see
 * them at once. `updatedAt`, the write's commit time (writeNetworks answers
 * it), keeps a refresh that read an older version from undoing the change.
 */
export function applyLocally(clientId: string, networks: string[], updatedAt?: Timestamp): void {
  const change: Change = { clientId, networks, updatedAt };
  if (!loaded) {
    // A first read under way may have begun before the write committed; with none under way, the first read will see it.
    if (refreshing) writtenDuringFirstRead.push(change);
    return;
  }
  loaded = { ...loaded, ...withChanges(loaded, [change]) };
}

/** Test hook: forget everything read (as a fresh instance would). */
export function forgetRegisteredNetworks(): void {
  lastFailureMs = Number.NEGATIVE_INFINITY;
  loaded = undefined;
  refreshing = undefined;
  writtenDuringFirstRead = [];
  generation += 1;
}
