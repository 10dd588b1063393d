import type { createRoleMatrix } from '../../support/fixtures';

// How an endpoint joins the fuzz test (test/fuzz/endpointFuzz.ts, run in the shards of test/fuzz/groups.ts): a
// valid request for it, which the fuzzer then breaks one field at a time with
// hostile values. Every operation in the OpenAPI document must have a seed.

/** Everyone the fuzzer can act as: a Super Admin, two organizations (admin + student each), a Guest, a user with no role. */
export type FuzzWorld = Awaited<ReturnType<typeof createRoleMatrix>>;

export interface FuzzRequest {
  /** Bearer token to send (omit for public routes). */
  token?: string;
  /** Values for the `{name}` segments of the path. */
  params?: Record<string, string>;
  query?: Record<string, string>;
  /** A JSON body. */
  body?: Record<string, unknown>;
  /** Further request headers (Safe Exam Browser's), sent as they are on every run. */
  headers?: Record<string, string>;
  /** A multipart body instead of JSON: one part, as `curl -F field=@filename` would send it. */
  multipart?: { field: string; filename: string; contentType: string; content: string };
}

export interface FuzzSeed {
  /** As in the OpenAPI document: lower-case method, space, path, e.g. `post /api/questions`. */
  operation: string;
  /**
   * For an operation whose body is one of several shapes (a union in the
   * document): the name of the shape this seed sends, e.g. `SaveAnswerBatch`.
   * Every shape needs a seed.
   */
  shape?: string;
  /**
   * A request that would succeed (or fail only for reasons of state, such as
   * 404 after an earlier fuzz run deleted the thing). Called before every run,
   * so it may hand out fresh ids.
   */
  request(world: FuzzWorld, prepared: any): FuzzRequest;
}

export interface FuzzSeedGroup {
  /** Creates what the seeds need (documents, ids), once, through the API or the Admin SDK. */
  prepare(world: FuzzWorld): Promise<unknown>;
  seeds: FuzzSeed[];
  /**
   * Valid requests sent once every run is over, in order, each to answer below
   * 400: the state the fuzz left, carried on as a client would (e.g. a grade after a regrade).
   */
  afterRuns?(world: FuzzWorld, prepared: any): Array<{ operation: string; request: FuzzRequest }>;
  /**
   * Checked last (after afterRuns): what no request, answered or refused, may
   * have left half done or inconsistent in what `prepare` made (each problem a sentence; none: []).
   */
  problems?(world: FuzzWorld, prepared: any): Promise<string[]>;
}
