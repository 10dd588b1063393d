import { createRequire } from 'node:module';
import { join } from 'node:path';
import { auth, db } from '../../functions/src/firestore/db';
import { captureLog, type LogEntry } from '../../functions/src/platform/log';

// Make the service's own Firestore and Auth clients fail, in this process, the
// way a real outage does: a commit is refused whole, a read throws, an Auth call
// throws. Each returns the function that heals it.

const UNAVAILABLE = 14;
export const firestoreUnavailable = () =>
  Object.assign(new Error('14 UNAVAILABLE: injected Firestore outage'), { code: UNAVAILABLE });
export const authInternalError = () =>
  Object.assign(new Error('injected Auth outage'), { code: 'auth/internal-error' });

type AnyFn = (...args: any[]) => any;
function patch(target: object, method: string, replacement: (original: AnyFn) => AnyFn): () => void {
  const original = (target as Record<string, AnyFn>)[method];
  (target as Record<string, AnyFn>)[method] = replacement(original);
  return () => {
    (target as Record<string, AnyFn>)[method] = original;
  };
}

// The classes of the functions' own copy of the SDK, reached through instances.
const writeBatchProto = Object.getPrototypeOf(db.batch());
const firestoreProto = Object.getPrototypeOf(db);
const queryProto = Object.getPrototypeOf(Object.getPrototypeOf(db.collection('x')));
const aggregateProto = Object.getPrototypeOf(db.collection('x').count());
// A transaction's reads go through its own class, only reached through the functions' copy of the SDK.
const transactionProto = (
  createRequire(join(__dirname, '../../functions/package.json'))('firebase-admin/firestore') as {
    Transaction: { prototype: object };
  }
).Transaction.prototype;

/** Firestore closing a transaction under a lock wait it lost (the emulator's words): contention, which the SDK does not run again. */
export const transactionLost = () =>
  Object.assign(new Error('3 INVALID_ARGUMENT: Transaction is invalid or closed: injected loss to contention'), {
    code: 3,
  });

/**
 * Every commit (set, create, batch, transaction) that touches a document whose
 * path matches fails whole, after the first `skip` such commits went through,
 * `times` times (default: every one), with `error` (default: Firestore unavailable).
 */
export function failWrites(
  paths: RegExp,
  {
    skip = 0,
    times = Infinity,
    error = firestoreUnavailable,
  }: { skip?: number; times?: number; error?: () => Error } = {},
): () => void {
  let passed = 0;
  return patch(
    writeBatchProto,
    '_commit',
    (original) =>
      function (this: { _ops: Array<{ docPath: string }> }, ...args: unknown[]) {
        if (this._ops.some((op) => paths.test(op.docPath))) {
          const seen = passed++;
          if (seen >= skip && seen < skip + times) return Promise.reject(error());
        }
        return original.apply(this, args);
      },
  );
}

/**
 * Holds the results of the first `count` document reads of matching paths
 * until all of them have completed: callers that race have all read before
 * any of them can write, every time.
 */
export function readTogether(paths: RegExp, count: number): () => void {
  const done: Array<() => void> = [];
  let taken = 0;
  return patch(
    firestoreProto,
    'getAll',
    (original) =>
      async function (this: unknown, ...refs: Array<{ path?: string }>) {
        const held = taken < count && refs.some((r) => typeof r?.path === 'string' && paths.test(r.path));
        if (!held) return original.apply(this, refs);
        taken += 1;
        const result = await original.apply(this, refs);
        const allRead = new Promise<void>((resolve) => done.push(resolve));
        if (done.length === count) done.forEach((release) => release());
        await allRead;
        return result;
      },
  );
}

/** The path of the collection a query runs on, as the patterns below match it. */
const collectionPath = (query: { _queryOptions: { parentPath: { relativeName: string }; collectionId: string } }) =>
  `${query._queryOptions.parentPath.relativeName}/${query._queryOptions.collectionId}`.replace(/^\//, '');

/** Document reads (in and out of transactions) and queries on paths that match fail. */
export function failReads(paths: RegExp): () => void {
  const heals = [
    patch(
      firestoreProto,
      'getAll',
      (original) =>
        function (this: unknown, ...refs: Array<{ path?: string }>) {
          if (refs.some((r) => typeof r?.path === 'string' && paths.test(r.path)))
            return Promise.reject(firestoreUnavailable());
          return original.apply(this, refs);
        },
    ),
    patch(
      transactionProto,
      'getAll',
      (original) =>
        function (this: unknown, ...refs: Array<{ path?: string }>) {
          if (refs.some((r) => typeof r?.path === 'string' && paths.test(r.path)))
            return Promise.reject(firestoreUnavailable());
          return original.apply(this, refs);
        },
    ),
    patch(
      queryProto,
      'get',
      (original) =>
        function (this: any, ...args: unknown[]) {
          if (paths.test(collectionPath(this))) return Promise.reject(firestoreUnavailable());
          return original.apply(this, args);
        },
    ),
    patch(
      aggregateProto,
      'get',
      (original) =>
        function (this: any, ...args: unknown[]) {
          if (paths.test(collectionPath(this._query))) return Promise.reject(firestoreUnavailable());
          return original.apply(this, args);
        },
    ),
  ];
  return () => heals.forEach((heal) => heal());
}

/**
 * A transaction's `get` of a document or a query on paths that match fails (failReads catches a
 * transaction's getAll only: its `get` reaches the reader below the SDK's entry points).
 */
export function failTransactionGets(paths: RegExp): () => void {
  return patch(
    transactionProto,
    'get',
    (original) =>
      function (this: unknown, refOrQuery: any) {
        const path = typeof refOrQuery?.path === 'string' ? refOrQuery.path : collectionPath(refOrQuery);
        if (paths.test(path)) return Promise.reject(firestoreUnavailable());
        return original.call(this, refOrQuery);
      },
  );
}

/**
 * Holds the result of the first query on a matching collection path for `ms`
 * before handing it back (inside a transaction too: both reach Query._get).
 * `reached` resolves once that query has read, so a test can act in the window
 * between a read and the write that follows it.
 */
export function holdFirstQuery(paths: RegExp, ms: number): { reached: Promise<void>; heal: () => void } {
  let held = false;
  let signal: () => void = () => {};
  const reached = new Promise<void>((resolve) => (signal = resolve));
  const heal = patch(
    queryProto,
    '_get',
    (original) =>
      async function (this: any, ...args: unknown[]) {
        const result = await original.apply(this, args);
        if (!held && paths.test(collectionPath(this))) {
          held = true;
          signal();
          await new Promise((resolve) => setTimeout(resolve, ms));
        }
        return result;
      },
  );
  return { reached, heal };
}

/** Counts the queries run on matching collection paths, and the documents they answered, until healed. */
export function countQueries(paths: RegExp): { queries: number; documents: number; heal: () => void } {
  const counts = { queries: 0, documents: 0, heal: () => {} };
  counts.heal = patch(
    queryProto,
    'get',
    (original) =>
      async function (this: any, ...args: unknown[]) {
        const snap = await original.apply(this, args);
        if (paths.test(collectionPath(this))) {
          counts.queries += 1;
          counts.documents += snap.size;
        }
        return snap;
      },
  );
  return counts;
}

/** The service's Auth client answers `method` with `fail()` (or whatever `replacement` does). */
export function replaceAuth(
  method:
    | 'verifyIdToken'
    | 'getUser'
    | 'getUsers'
    | 'getUserByEmail'
    | 'createUser'
    | 'setCustomUserClaims'
    | 'deleteUser'
    | 'updateUser',
  replacement: (original: AnyFn) => AnyFn,
): () => void {
  return patch(auth, method, (original) => replacement(original.bind(auth)));
}

/** What the service logs while `work` runs, instead of printing it. */
export async function loggedDuring<T>(work: () => Promise<T>): Promise<{ result: T; entries: LogEntry[] }> {
  const entries: LogEntry[] = [];
  const release = captureLog((entry) => entries.push(entry));
  try {
    return { result: await work(), entries };
  } finally {
    release();
  }
}

/** Runs `work` with a fault injected (`inject` returns the healer), healing it whatever happens; returns what was logged too. */
export async function duringFault<T>(
  inject: () => () => void,
  work: () => Promise<T>,
): Promise<{ result: T; entries: LogEntry[] }> {
  const heal = inject();
  try {
    return await loggedDuring(work);
  } finally {
    heal();
  }
}

/** Cloud Storage refusing connections, as when it is down: every download and upload of the service's client fails. */
export function failStorage(): () => void {
  const { getStorage } = createRequire(join(__dirname, '../../functions/package.json'))('firebase-admin/storage') as {
    getStorage: () => { bucket: (name: string) => { file: (name: string) => object } };
  };
  const fileProto = Object.getPrototypeOf(getStorage().bucket('any').file('any'));
  const refused = () =>
    Promise.reject(Object.assign(new Error('connect ECONNREFUSED: injected Storage outage'), { code: 'ECONNREFUSED' }));
  const heals = ['download', 'save'].map((method) => patch(fileProto, method, () => refused));
  return () => heals.forEach((heal) => heal());
}

/** What one Firestore RPC of the service's client names: its method and the document or collection paths in it. */
function rpcPaths(method: string, request: any): string[] {
  const relative = (name: string) => name.replace(/^projects\/[^/]+\/databases\/[^/]+\/documents\/?/, '');
  if (method === 'batchGetDocuments') return (request?.documents ?? []).map(relative);
  if (method === 'runQuery' || method === 'runAggregationQuery') {
    const query = request?.structuredQuery ?? request?.structuredAggregationQuery?.structuredQuery;
    const parent = relative(request?.parent ?? '');
    return (query?.from ?? []).map((f: { collectionId: string }) => `${parent}/${f.collectionId}`.replace(/^\//, ''));
  }
  if (method === 'commit')
    return (request?.writes ?? []).map((w: any) => relative(w.update?.name ?? w.delete ?? w.transform?.document ?? ''));
  return [];
}

/**
 * Firestore stops answering, as a stalled backend does: the RPCs of `methods`
 * (default: every read and commit) that name a path matching `paths` are held,
 * unsent, until healed, and then sent as they were. Below the SDK's entry
 * points, so the service sees calls that simply do not answer. `held` counts them.
 */
export function stallFirestore(
  paths: RegExp,
  methods: string[] = ['batchGetDocuments', 'runQuery', 'runAggregationQuery', 'commit'],
): { held: () => number; heal: () => void } {
  let release: () => void = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  let held = 0;
  const holds = (method: string, request: unknown) =>
    methods.includes(method) && rpcPaths(method, request).some((p) => paths.test(p));
  const heals = ['request', 'requestStream'].map((name) =>
    patch(
      firestoreProto,
      name,
      (original) =>
        async function (this: unknown, method: string, ...rest: unknown[]) {
          // request(method, request, tag); requestStream(method, bidirectional, request, tag)
          const request = name === 'request' ? rest[0] : rest[1];
          if (holds(method, request)) {
            held += 1;
            await released;
          }
          return original.call(this, method, ...rest);
        },
    ),
  );
  return {
    held: () => held,
    heal: () => {
      heals.forEach((heal) => heal());
      release();
    },
  };
}

/**
 * The service's Auth client stops answering: its requests to the Auth backend
 * (those whose URL matches `urls`, default every one) are held, unsent, until healed.
 */
export function stallAuth(urls = /./): { held: () => number; heal: () => void } {
  const client = (auth as unknown as { authRequestHandler: { httpClient: object } }).authRequestHandler.httpClient;
  let release: () => void = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  let held = 0;
  const heal = patch(
    client,
    'send',
    (original) =>
      async function (this: unknown, ...args: unknown[]) {
        if (urls.test((args[0] as { url?: string } | undefined)?.url ?? '')) {
          held += 1;
          await released;
        }
        return original.apply(this, args);
      },
  );
  return {
    held: () => held,
    heal: () => {
      heal();
      release();
    },
  };
}
