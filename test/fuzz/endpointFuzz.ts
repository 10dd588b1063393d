import assert from 'node:assert/strict';
import http from 'node:http';
import fc from 'fast-check';
import { ERROR_STATUS } from '../../functions/src/shared/errors';
import { createRoleMatrix } from '../support/fixtures';
import { freshIp } from '../support/http';
import { startInProcessApi, type InProcessApi } from '../support/inProcessApi';
import { expectNoInternals, UNREADABLE_BODIES, type BodyCase } from '../support/unreadableBodies';
import type { FuzzRequest, FuzzSeed, FuzzSeedGroup, FuzzWorld } from './seeds/types';

// Property-based fuzzing of every endpoint in the OpenAPI document, and of
// each shape of a body that takes several (one answer, or a batch). Each run
// takes a valid request (its seed) and replaces one part of it (a path
// parameter, a query parameter, a body field or a field of a list's first
// item, the whole body, the token, an uploaded file) with a hostile value:
// huge, empty, NUL, emoji, NaN, arrays, nested objects, unknown keys. Whatever comes back must not be a 5xx, and an
// error must be exactly the documented body. Runs against the app in-process,
// with rate limits lifted so that every run reaches the handler.
// FUZZ_RUNS sets the runs per endpoint; FUZZ_SEED replays a failure.

const RUNS = Number(process.env.FUZZ_RUNS ?? 30);
const FUZZ_SEED = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : undefined;

// ---------------------------------------------------------------- hostile values

const hostileText = fc.oneof(
  fc.constantFrom(
    '',
    ' ',
    '\u0000',
    'a\u0000b',
    'NaN',
    'null',
    'undefined',
    'true',
    '-1',
    '0',
    '1e309',
    '-0',
    '0x10',
    '1.5',
    '[]',
    '{}',
  ),
  fc.constantFrom(
    '..',
    '.',
    '__proto__',
    'constructor',
    '__name__',
    '__x__',
    'a/b',
    '../../etc/passwd',
    '%00',
    '%2F',
    '\\',
    "'; DROP TABLE x;--",
    '<script>',
  ),
  fc.constantFrom(
    '😀'.repeat(200),
    '\u202e\u200b',
    'ﷺ'.repeat(50),
    '\ud800',
    'x'.repeat(129),
    'x'.repeat(1025),
    'x'.repeat(3000),
    'x'.repeat(7000),
  ),
  // Instants valid with their offset but outside years 0000 to 9999 in UTC, and as they would be answered.
  fc.constantFrom(
    '9999-12-31T23:30:00-01:00',
    '0000-01-01T00:30:00+01:00',
    '+010000-01-01T00:30:00.000Z',
    '-000001-12-31T23:30:00.000Z',
  ),
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
);
const hostileJson: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    hostileText,
    fc.constantFrom(null, true, false, 0, -1, 1.5, 1e308, -1e308, Number.MAX_SAFE_INTEGER + 2, NaN, Infinity),
    fc.integer(),
    fc.double(),
    fc.constant('x'.repeat(300_000)),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(fc.constantFrom('a', '$gt', '__proto__', 'constructor', ''), tie('value'), { maxKeys: 3 }),
  ),
})).value;
/** A query value arrives as text, or as repeated keys (an array). */
const hostileQueryValue = fc.oneof(hostileText, fc.array(hostileText, { minLength: 2, maxLength: 3 }));
// A header carries Latin-1 only (HTTP clients refuse anything else before it is sent).
const hostileToken = fc
  .oneof(hostileText, fc.constantFrom('a.b.c', 'eyJhbGciOiJub25lIn0.e30.', 'Bearer', 'x'.repeat(9000)))
  .map((token) => token.replace(/[^\x20-\x7e\xa0-\xff]/g, '~'));
const hostileCsv = fc.oneof(
  hostileText,
  fc.constantFrom(
    'question_text,question_type\n"unclosed',
    '\u0000\u0001\u0002',
    'a,b\n1,2,3\n',
    '\ufeff',
    'x'.repeat(6 * 1024 * 1024),
    // The bank formats: a bomb, an external entity, broken GIFT, half a zip, QTI 1.2.
    '<?xml version="1.0"?><!DOCTYPE q [<!ENTITY a "aaaa"><!ENTITY b "&a;&a;&a;&a;">]><quiz>&b;</quiz>',
    '<?xml version="1.0"?><!DOCTYPE quiz [<!ENTITY x SYSTEM "file:///etc/passwd">]><quiz>&x;</quiz>',
    '<quiz><question type="multichoice"><answer fraction="abc">',
    '<questestinterop><item/></questestinterop>',
    '<qti-assessment-item><qti-item-body><qti-choice-interaction max-choices="-1"/></qti-item-body></qti-assessment-item>',
    '::t:: {#abc}\n::u:: text {=a ~b\n$CATEGORY: \n{',
    'Q?\nA) a\nANSWER: Z\n',
    'PK\u0003\u0004\u0014\u0000\u0000\u0000\u0008\u0000',
  ),
  fc.string({ maxLength: 200 }),
);

// ---------------------------------------------------------------- the document

interface Operation {
  key: string;
  /** The body's shape, when the body is one of several (a union): its schema's name, e.g. SaveAnswerBatch. */
  shape?: string;
  /** What a seed is found by: the operation, and its body's shape when it has several. */
  seedKey: string;
  path: string;
  method: string;
  pathParams: string[];
  queryParams: string[];
  /** The body's fields, and those of the first item of a list of objects (`answers.0.question_id`). */
  bodyFields: string[];
  /** Opens with X-Attempt-Token as well as with a bearer token. */
  attemptTokenHeader: boolean;
  /**
   * Another shape of the same operation comes first and sweeps what every shape shares: the path,
   * the query, the tokens, the whole body, and the body fields whose schema is the same in every shape.
   */
  sharedWithFirstShape?: { bodyFields: Set<string> };
}

/** One operation per shape of its body: a body that is one of several shapes is fuzzed in each, from a seed of its own. */
function operationsOf(doc: any): Operation[] {
  const resolve = (schema: any): any => (schema?.$ref ? doc.components.schemas[schema.$ref.split('/').pop()] : schema);
  const fieldsOf = (body: any): string[] =>
    Object.entries<any>(body?.properties ?? {}).flatMap(([name, property]) => {
      const items = property.type === 'array' ? resolve(property.items) : undefined;
      return [name, ...Object.keys(items?.properties ?? {}).map((field) => `${name}.0.${field}`)];
    });
  const schemasOf = (body: any): Map<string, string> =>
    new Map(
      fieldsOf(body).map((field) => {
        const [name, , inner] = field.split('.');
        const property = body.properties[name];
        const schema = inner ? resolve(property.items).properties[inner] : property;
        return [field, JSON.stringify(resolve(schema))];
      }),
    );
  /** The fields every shape holds with the same schema: one shape's sweep of them is every shape's. */
  const sameInEvery = (bodies: any[]): Set<string> => {
    const [first, ...others] = bodies.map(schemasOf);
    return new Set(
      [...first].filter(([field, schema]) => others.every((o) => o.get(field) === schema)).map(([f]) => f),
    );
  };
  const ops: Operation[] = [];
  for (const [path, item] of Object.entries<any>(doc.paths)) {
    for (const [method, op] of Object.entries<any>(item)) {
      const params: any[] = op.parameters ?? [];
      const schema = op.requestBody?.content?.['application/json']?.schema;
      const members: any[] | undefined = resolve(schema)?.anyOf ?? resolve(schema)?.oneOf;
      const shapes = members
        ? members.map((member) => ({ shape: member.$ref?.split('/').pop() ?? 'unnamed', body: resolve(member) }))
        : [{ shape: undefined, body: resolve(schema) }];
      const shared = members ? { bodyFields: sameInEvery(shapes.map((s) => s.body)) } : undefined;
      for (const [i, { shape, body }] of shapes.entries()) {
        const key = `${method} ${path}`;
        ops.push({
          key,
          shape,
          seedKey: shape ? `${key} ${shape}` : key,
          path,
          method: method.toUpperCase(),
          pathParams: params.filter((p) => p.in === 'path').map((p) => p.name),
          queryParams: params.filter((p) => p.in === 'query').map((p) => p.name),
          bodyFields: fieldsOf(body),
          attemptTokenHeader: (op.security ?? []).some(
            (alternative: Record<string, unknown>) => 'attemptToken' in alternative,
          ),
          ...(i > 0 && shared ? { sharedWithFirstShape: shared } : {}),
        });
      }
    }
  }
  return ops;
}

/** Sets `value` at a dotted path (`answers.0.client_seq`), making the containers on the way as needed. */
function setPath(target: Record<string, any>, path: string, value: unknown): void {
  const [head, ...rest] = path.split('.');
  if (rest.length === 0) {
    target[head] = value;
    return;
  }
  if (target[head] === null || typeof target[head] !== 'object') target[head] = /^\d+$/.test(rest[0]) ? [] : {};
  setPath(target[head], rest.join('.'), value);
}

// ---------------------------------------------------------------- requests

type Mutation =
  | { part: 'none' }
  | { part: 'path'; name: string; value: string }
  | { part: 'query'; name: string; value: string | string[] }
  | { part: 'body'; name: string; value: unknown }
  | { part: 'wholeBody'; value: unknown }
  | { part: 'rawBody'; value: string }
  | { part: 'unreadableBody'; value: BodyCase }
  | { part: 'token'; value: string }
  | { part: 'attemptTokenHeader'; value: string }
  | { part: 'file'; value: string }
  | { part: 'fileField'; value: string };

function mutations(op: Operation, seed: FuzzRequest): fc.Arbitrary<Mutation> {
  const options: Array<fc.Arbitrary<Mutation>> = [
    hostileToken.map((value) => ({ part: 'token' as const, value })),
    fc
      .tuple(fc.constantFrom(...op.queryParams, 'zz_unknown'), hostileQueryValue)
      .map(([name, value]) => ({ part: 'query' as const, name, value })),
  ];
  if (op.attemptTokenHeader)
    options.push(hostileToken.map((value) => ({ part: 'attemptTokenHeader' as const, value })));
  if (op.pathParams.length > 0) {
    options.push(
      fc
        .tuple(fc.constantFrom(...op.pathParams), hostileText)
        .map(([name, value]) => ({ part: 'path' as const, name, value })),
    );
  }
  if (seed.body) {
    options.push(
      fc
        .tuple(fc.constantFrom(...op.bodyFields, 'zz_unknown'), hostileJson)
        .map(([name, value]) => ({ part: 'body' as const, name, value })),
      hostileJson.map((value) => ({ part: 'wholeBody' as const, value })),
      fc
        .constantFrom('{', '{"a":', 'not json', '\u0000', '{"a":1}}', '[1,2', '{"__proto__":{"x":1}}')
        .map((value) => ({ part: 'rawBody' as const, value })),
    );
  }
  if (seed.multipart) {
    options.push(
      hostileCsv.map((value) => ({ part: 'file' as const, value })),
      fc.constantFrom('', 'files', 'file[]', 'FILE').map((value) => ({ part: 'fileField' as const, value })),
    );
  }
  return fc.oneof(...options);
}

// The classic hostile values, each tried on every field of every endpoint.
const CLASSIC_TEXT = [
  '',
  ' ',
  '\u0000',
  'NaN',
  '-1',
  '1e309',
  '..',
  '__x__',
  'a/b',
  '%00',
  '😀'.repeat(200),
  'x'.repeat(129),
  'x'.repeat(3000),
  'x'.repeat(7000),
];
// Lone surrogates travel only in JSON (a URL or header turns them into U+FFFD on the way).
const CLASSIC_JSON: unknown[] = [
  ...CLASSIC_TEXT,
  '\ud800',
  'a\udc00b',
  null,
  true,
  -1,
  0,
  1.5,
  1e308,
  [],
  ['a', 'b'],
  {},
  { a: { b: { c: [] } } },
  'x'.repeat(300_000),
];
/** Cursors that decode, but were never issued: their ids, pages and values forged. */
const forgedCursor = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
const FORGED_CURSORS = [
  forgedCursor([1, 'x', 'a/b']),
  forgedCursor([1, 'x', '__x__']),
  forgedCursor([1, 'x', '']),
  forgedCursor([9007199254740992, 'x', 'z']),
  forgedCursor([1, 'x', 'y', 'z']),
  forgedCursor([1, { a: 1 }, 'z']),
  forgedCursor([1, 'x'.repeat(600), 'z']),
  Buffer.from('[1,"\\ud800","z"]').toString('base64url'),
];

/**
 * Every part of the request, broken with every classic value: a sweep no random run can miss. A
 * body's second shape sweeps only what is its own (Operation.sharedWithFirstShape).
 */
function sweep(op: Operation, seed: FuzzRequest): Mutation[] {
  const shared = op.sharedWithFirstShape;
  if (!shared) return sweepAll(op, seed);
  const own = op.bodyFields.filter((name) => !shared.bodyFields.has(name));
  const all: Mutation[] = [];
  for (const value of CLASSIC_JSON) for (const name of own) all.push({ part: 'body', name, value });
  return all;
}

function sweepAll(op: Operation, seed: FuzzRequest): Mutation[] {
  const all: Mutation[] = [];
  for (const value of CLASSIC_TEXT) {
    for (const name of op.pathParams) all.push({ part: 'path', name, value });
    for (const name of [...op.queryParams, 'zz_unknown']) all.push({ part: 'query', name, value });
    all.push({ part: 'token', value: value.replace(/[^\x20-\x7e\xa0-\xff]/g, '~') });
    if (op.attemptTokenHeader)
      all.push({ part: 'attemptTokenHeader', value: value.replace(/[^\x20-\x7e\xa0-\xff]/g, '~') });
    if (seed.multipart) all.push({ part: 'file', value });
  }
  for (const name of op.queryParams) all.push({ part: 'query', name, value: ['1', '2'] });
  if (op.queryParams.includes('cursor'))
    for (const value of FORGED_CURSORS) all.push({ part: 'query', name: 'cursor', value });
  if (seed.multipart)
    for (const value of ['', 'files', 'file[]', 'FILE', '\u0000']) all.push({ part: 'fileField', value });
  if (seed.body) {
    for (const value of CLASSIC_JSON) {
      for (const name of [...op.bodyFields, 'zz_unknown']) all.push({ part: 'body', name, value });
      all.push({ part: 'wholeBody', value });
    }
  }
  return all;
}

const describeMutation = (mutation: Mutation) =>
  mutation.part === 'unreadableBody'
    ? `${mutation.part} ${mutation.value.title}`
    : `${mutation.part} ${'name' in mutation ? mutation.name : ''} = ${JSON.stringify('value' in mutation ? mutation.value : '').slice(0, 120)}`;

function multipartBody(part: NonNullable<FuzzRequest['multipart']>): { body: string; contentType: string } {
  const boundary = '----fuzz' + Math.random().toString(16).slice(2);
  const body =
    `--${boundary}\r\nContent-Disposition: form-data; name="${part.field}"; filename="${part.filename}"\r\n` +
    `Content-Type: ${part.contentType}\r\n\r\n${part.content}\r\n--${boundary}--\r\n`;
  return { body, contentType: `multipart/form-data; boundary=${boundary}` };
}

async function send(server: InProcessApi, op: Operation, seed: FuzzRequest, mutation: Mutation) {
  const params = { ...seed.params };
  const query: Record<string, string | string[]> = { ...seed.query };
  let body: unknown = seed.body ? structuredClone(seed.body) : undefined;
  let raw: string | undefined;
  let token = seed.token;
  let attemptTokenHeader: string | undefined;
  let multipart = seed.multipart ? { ...seed.multipart } : undefined;
  switch (mutation.part) {
    case 'none':
      break;
    case 'path':
      params[mutation.name] = mutation.value;
      break;
    case 'query':
      query[mutation.name] = mutation.value;
      break;
    case 'body':
      setPath(body as Record<string, unknown>, mutation.name, mutation.value);
      break;
    case 'wholeBody':
      body = mutation.value;
      break;
    case 'rawBody':
      raw = mutation.value;
      break;
    case 'unreadableBody':
      multipart = undefined;
      break;
    case 'token':
      token = mutation.value;
      break;
    case 'attemptTokenHeader':
      attemptTokenHeader = mutation.value;
      break;
    case 'file':
      multipart = { ...multipart!, content: mutation.value };
      break;
    case 'fileField':
      multipart = { ...multipart!, field: mutation.value };
      break;
  }
  // A lone surrogate cannot be put in a URL by any client; it becomes U+FFFD as a browser would make it.
  const path = op.path.replace(/\{(\w+)\}/g, (_, name) =>
    encodeURIComponent((params[name] ?? '').replace(/[\ud800-\udfff]/gu, '\ufffd')),
  );
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) for (const v of [value].flat()) search.append(name, v);
  const headers: Record<string, string> = { 'X-Forwarded-For': freshIp(), ...seed.headers };
  if (token !== undefined) headers.Authorization = `Bearer ${token}`;
  if (attemptTokenHeader !== undefined) headers['X-Attempt-Token'] = attemptTokenHeader;
  let payload: string | undefined;
  if (multipart) {
    const built = multipartBody(multipart);
    payload = built.body;
    headers['Content-Type'] = built.contentType;
  } else if (mutation.part === 'unreadableBody') {
    payload = mutation.value.body;
    Object.assign(headers, mutation.value.headers);
  } else if (raw !== undefined || body !== undefined) {
    payload = raw ?? JSON.stringify(body);
    headers['Content-Type'] = 'application/json';
  }
  const url = `${server.baseUrl}${path}${search.size > 0 ? `?${search}` : ''}`;
  const res = await fetch(url, { method: op.method, headers, body: payload });
  // The request line and headers as sent, give or take the few the client adds (Host, Connection, lengths).
  const headBytes =
    Buffer.byteLength(`${op.method} ${url.slice(server.baseUrl.length)} HTTP/1.1\r\n`) +
    Object.entries(headers).reduce((sum, [name, value]) => sum + Buffer.byteLength(`${name}: ${value}\r\n`), 0);
  return {
    status: res.status,
    contentType: res.headers.get('content-type') ?? '',
    text: await res.text(),
    headBytes,
  };
}

/**
 * A request whose request line and headers pass the HTTP server's limit (Node's 16 KB, as in the
 * Functions Framework) never reaches the app: the server itself answers 431 with no body. Below
 * the limit, with a margin for the headers the client adds, every answer is the app's.
 */
const HEAD_LIMIT_BYTES = http.maxHeaderSize;
const HEAD_MARGIN_BYTES = 512;

function assertDocumentedAnswer(
  answer: { status: number; contentType: string; text: string; headBytes?: number },
  context: string,
): void {
  const head = answer.headBytes ?? 0;
  if (head > HEAD_LIMIT_BYTES) {
    assert.deepEqual([answer.status, answer.text], [431, ''], `${context}: ${head} bytes of head → the server's 431`);
    return;
  }
  if (answer.status === 431 && head > HEAD_LIMIT_BYTES - HEAD_MARGIN_BYTES) return;
  assert.ok(answer.status < 500, `${context} → ${answer.status} ${answer.text.slice(0, 300)}`);
  if (answer.status < 400) return;
  assert.match(answer.contentType, /application\/json/, `${context}: an error is JSON`);
  const body = JSON.parse(answer.text);
  // As the Error schema documents them (questions, rows: an import’s report of what cannot be imported).
  const allowed = ['error', 'message', 'status', 'details', 'details_total', 'questions', 'rows'];
  assert.deepEqual(
    Object.keys(body).filter((k) => !allowed.includes(k)),
    [],
    `${context}: ${answer.text.slice(0, 300)}`,
  );
  assert.equal(
    ERROR_STATUS[body.error as keyof typeof ERROR_STATUS],
    answer.status,
    `${context}: error code matches status: ${answer.text.slice(0, 300)}`,
  );
  assert.equal(body.status, answer.status);
  assert.equal(typeof body.message, 'string');
  if (body.details !== undefined) {
    assert.ok(Array.isArray(body.details), context);
    for (const d of body.details)
      assert.ok(typeof d.path === 'string' && typeof d.message === 'string', `${context}: ${JSON.stringify(d)}`);
  }
}

// ---------------------------------------------------------------- the test

/** The operations the app's OpenAPI document names, one per shape of a body that has several. */
export async function documentedOperations(server: InProcessApi): Promise<Operation[]> {
  return operationsOf(await (await fetch(`${server.baseUrl}/api/openapi.json`)).json());
}

/** What a seed answers for: its operation, and its body's shape when the body has several. */
export const seedKeyOf = (seed: FuzzSeed) => (seed.shape ? `${seed.operation} ${seed.shape}` : seed.operation);

/**
 * Fuzzes the operations these groups seed (each shard file takes a share of the groups, so that the
 * shards run side by side), each shard against an app and a role matrix of its own.
 */
export function fuzzEndpoints(part: string, groups: FuzzSeedGroup[]): void {
  describe(`fuzz (${part}): hostile values at every parameter and body field of every endpoint`, function () {
    this.timeout(900_000);
    let server: InProcessApi;
    let world: FuzzWorld;
    let operations: Operation[];
    const prepared = new Map<FuzzSeedGroup, unknown>();
    const seedFor = new Map<string, { seed: FuzzSeed; group: FuzzSeedGroup }>();
    for (const group of groups) for (const seed of group.seeds) seedFor.set(seedKeyOf(seed), { seed, group });

    let framework: InProcessApi;
    const unlimited = {
      ratePerMinute: 1_000_000,
      sensitivePerMinute: 1_000_000,
      authFailuresPerMinute: 1_000_000,
      authFailuresPerNetworkAddressPerMinute: 1_000_000,
    };

    before(async () => {
      server = await startInProcessApi(unlimited);
      // Production's path: the Functions Framework's body parsers read the body before the app.
      framework = await startInProcessApi(unlimited, { framework: true });
      world = await createRoleMatrix();
      for (const group of groups) prepared.set(group, await group.prepare(world));
      operations = await documentedOperations(server);
    });
    after(() => Promise.all([server.close(), framework.close()]));

    it('answers every field broken with each classic hostile value below 500, with the documented error body', async () => {
      const failures: string[] = [];
      for (const op of operations) {
        const entry = seedFor.get(op.seedKey);
        if (!entry) continue; // another shard's (seedCoverage.test.ts: each operation has one seed)
        const state = prepared.get(entry.group);
        for (const mutation of sweep(op, entry.seed.request(world, state))) {
          const answer = await send(server, op, entry.seed.request(world, state), mutation);
          try {
            assertDocumentedAnswer(answer, `${op.seedKey} with ${describeMutation(mutation)}`);
          } catch (err) {
            failures.push((err as Error).message.split('\n')[0]);
          }
        }
      }
      assert.deepEqual(failures, []);
    });

    it('answers every unreadable body (bad Content-Encoding or charset, over-deep or over-long form) on every endpoint that takes a body with its one documented error, no stack, through the Functions Framework and bare', async () => {
      const failures: string[] = [];
      let swept = 0;
      for (const op of operations) {
        const entry = seedFor.get(op.seedKey);
        if (!entry) continue;
        const state = prepared.get(entry.group);
        const seed = entry.seed.request(world, state);
        // A body that cannot be read has no shape: the first shape's sweep is every shape's.
        if ((!seed.body && !seed.multipart) || op.sharedWithFirstShape) continue;
        for (const value of UNREADABLE_BODIES) {
          // The bare app parses JSON only; other types go on to the route, which the sweep above covers.
          for (const target of value.json ? [framework, server] : [framework]) {
            const context = `${op.seedKey} with ${describeMutation({ part: 'unreadableBody', value })}${target === framework ? ' (framework)' : ' (bare)'}`;
            const answer = await send(target, op, entry.seed.request(world, state), { part: 'unreadableBody', value });
            swept += 1;
            try {
              assertDocumentedAnswer(answer, context);
              assert.equal(answer.status, value.status, `${context} → ${answer.status} ${answer.text.slice(0, 300)}`);
              assert.equal(JSON.parse(answer.text).error, value.code, context);
              expectNoInternals(answer);
            } catch (err) {
              failures.push((err as Error).message.split('\n')[0]);
            }
          }
        }
      }
      assert.ok(swept > 0, 'some endpoint takes a body');
      assert.deepEqual(failures, []);
    });

    it('answers random hostile requests below 500, with the documented error body', async () => {
      for (const op of operations) {
        const entry = seedFor.get(op.seedKey);
        if (!entry) continue;
        const state = prepared.get(entry.group);
        await fc.assert(
          fc.asyncProperty(mutations(op, entry.seed.request(world, state)), async (mutation) => {
            const answer = await send(server, op, entry.seed.request(world, state), mutation);
            assertDocumentedAnswer(answer, `${op.seedKey} with ${describeMutation(mutation)}`);
          }),
          { numRuns: RUNS, seed: FUZZ_SEED, endOnFailure: true },
        );
      }
    });

    // Last: after every run above, answered or refused, and a few valid requests sent as a client would carry on,
    // nothing a request started is left half done or inconsistent.
    it('leaves nothing half done in what the seeds prepared (each group’s own checks, after its valid requests once more)', async () => {
      const problems: string[] = [];
      for (const group of groups) {
        const state = prepared.get(group);
        for (const { operation, request } of group.afterRuns?.(world, state) ?? []) {
          const op = operations.find((o) => o.seedKey === operation);
          assert.ok(op, `no operation ${operation}`);
          const answer = await send(server, op, request, { part: 'none' });
          assert.ok(answer.status < 400, `${operation} after the runs → ${answer.status} ${answer.text.slice(0, 300)}`);
        }
        if (group.problems) problems.push(...(await group.problems(world, state)));
      }
      assert.deepEqual(problems, []);
    });
  });
}
