import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createLocalJWKSet, jwtVerify, type JSONWebKeySet } from '../../functions/node_modules/jose';

// An LTI platform's services as the tool meets them after a launch, written
// with jose: an OAuth token endpoint that accepts only a client assertion
// signed with the tool's keys (its JWKS fetched as a platform would), line
// items whose score endpoints record what they receive, and course rosters
// (NRPS) served in pages linked by `Link: rel="next"`.

export interface ReceivedScore {
  lineitem: string;
  /** The path and query the score was posted to. */
  url: string;
  contentType: string | undefined;
  scopes: string[];
  body: any;
}

export interface TokenRequest {
  clientId: string;
  scopes: string[];
  /** Why it was refused, or null when a token was given. */
  refused: string | null;
}

export interface RosterMember {
  user_id: string;
  roles: string[];
  email?: string;
  name?: string;
  given_name?: string;
  family_name?: string;
  status?: 'Active' | 'Inactive' | 'Deleted';
}

type Behaviour = { status: number; body?: string } | { hangMs: number };

export interface PlatformServices {
  url: string;
  /** The token endpoint (a registration's auth_token_url). */
  tokenUrl: string;
  tokenRequests: TokenRequest[];
  scores: ReceivedScore[];
  /** Page reads of the rosters. */
  rosterReads: string[];
  /** Seconds each token lives (expires_in). */
  tokenLifetimeSeconds: number;
  /** Answers the next requests to the token endpoint, one behaviour each, before serving normally again. */
  failTokens(...behaviours: Behaviour[]): void;
  /** Answers the next score posts, one behaviour each. */
  failScores(...behaviours: Behaviour[]): void;
  /** Answers the next roster page reads, one behaviour each. */
  failRoster(...behaviours: Behaviour[]): void;
  /** A line item URL of this platform (with a query string, as Moodle's have). */
  lineitem(id?: string): string;
  /** Serves a roster at the returned URL, `pageSize` members a page. */
  roster(members: RosterMember[], pageSize?: number): string;
  /** Tokens given so far: revoking them makes the endpoints answer 401. */
  revokeTokens(): void;
  close(): Promise<void>;
}

const SCORE_SCOPE = 'https://purl.imsglobal.org/spec/lti-ags/scope/score';
const NRPS_SCOPE = 'https://purl.imsglobal.org/spec/lti-nrps/scope/contextmembership.readonly';

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function answer(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  res.writeHead(status, { 'Content-Type': 'application/json', ...headers });
  res.end(typeof body === 'string' ? body : JSON.stringify(body));
}

/**
 * Starts the platform's services. `toolJwks` is where the platform gets the tool's public keys
 * (the tool's JWKS endpoint, or its keys read in this process); `clientIds` are the OAuth client
 * ids it issued to the tool (a registration's platform_client_id).
 */
export async function startPlatformServices(opts: {
  toolJwks: () => Promise<JSONWebKeySet>;
  clientIds: string[];
}): Promise<PlatformServices> {
  const tokens = new Map<string, { clientId: string; scopes: string[] }>();
  const usedJtis = new Set<string>();
  const tokenFaults: Behaviour[] = [];
  const scoreFaults: Behaviour[] = [];
  const rosterFaults: Behaviour[] = [];
  const rosters = new Map<string, { members: RosterMember[]; pageSize: number }>();
  const sockets = new Set<import('node:net').Socket>();

  const services: PlatformServices = {
    url: '',
    tokenUrl: '',
    tokenRequests: [],
    scores: [],
    rosterReads: [],
    tokenLifetimeSeconds: 3600,
    failTokens: (...b) => void tokenFaults.push(...b),
    failScores: (...b) => void scoreFaults.push(...b),
    failRoster: (...b) => void rosterFaults.push(...b),
    lineitem: (id = randomUUID()) => `${services.url}/lineitems/${id}/lineitem?type_id=7`,
    roster(members, pageSize = 100) {
      const id = randomUUID();
      rosters.set(id, { members, pageSize });
      return `${services.url}/rosters/${id}/memberships`;
    },
    revokeTokens: () => tokens.clear(),
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };

  /** Applies the next queued fault, if any: true when it answered. */
  async function faulted(queue: Behaviour[], res: ServerResponse): Promise<boolean> {
    const fault = queue.shift();
    if (!fault) return false;
    if ('hangMs' in fault) {
      await new Promise((r) => setTimeout(r, fault.hangMs));
      if (!res.destroyed) answer(res, 200, {});
      return true;
    }
    answer(res, fault.status, fault.body ?? { error: 'server_error' });
    return true;
  }

  function bearer(req: IncomingMessage, scope: string): string | null {
    const match = /^Bearer (.+)$/.exec(req.headers.authorization ?? '');
    const token = match && tokens.get(match[1]);
    if (!token) return 'no valid token';
    return token.scopes.includes(scope) ? null : `token lacks ${scope}`;
  }

  async function token(req: IncomingMessage, res: ServerResponse) {
    const form = new URLSearchParams(await readBody(req));
    const scopes = (form.get('scope') ?? '').split(' ').filter(Boolean);
    const record: TokenRequest = { clientId: '', scopes, refused: null };
    services.tokenRequests.push(record);
    if (await faulted(tokenFaults, res)) return;
    const refuse = (why: string, error = 'invalid_client') => {
      record.refused = why;
      answer(res, 400, { error, error_description: why });
    };
    if (form.get('grant_type') !== 'client_credentials') return refuse('grant_type', 'unsupported_grant_type');
    if (form.get('client_assertion_type') !== 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer')
      return refuse('client_assertion_type');
    try {
      const keys = createLocalJWKSet(await opts.toolJwks());
      const { payload } = await jwtVerify(form.get('client_assertion') ?? '', keys, {
        audience: services.tokenUrl,
        algorithms: ['RS256'],
      });
      if (!payload.iss || payload.iss !== payload.sub || !opts.clientIds.includes(payload.iss))
        return refuse('iss and sub must be the client id');
      if (!payload.jti || usedJtis.has(payload.jti)) return refuse('jti missing or used');
      if (!payload.exp) return refuse('exp missing');
      usedJtis.add(payload.jti);
      record.clientId = payload.iss;
    } catch (err) {
      return refuse(`client assertion: ${(err as Error).message}`);
    }
    const accessToken = randomUUID();
    tokens.set(accessToken, { clientId: record.clientId, scopes });
    answer(res, 200, {
      access_token: accessToken,
      token_type: 'Bearer',
      expires_in: services.tokenLifetimeSeconds,
      scope: scopes.join(' '),
    });
  }

  async function score(req: IncomingMessage, res: ServerResponse, lineitem: string) {
    const body = await readBody(req);
    if (await faulted(scoreFaults, res)) return;
    const problem = bearer(req, SCORE_SCOPE);
    if (problem) return answer(res, 401, { error: problem });
    services.scores.push({
      lineitem,
      url: req.url!,
      contentType: req.headers['content-type'],
      scopes: tokens.get(req.headers.authorization!.slice(7))!.scopes,
      body: JSON.parse(body),
    });
    answer(res, 200, {});
  }

  async function memberships(req: IncomingMessage, res: ServerResponse, id: string, page: number) {
    services.rosterReads.push(req.url!);
    if (await faulted(rosterFaults, res)) return;
    const problem = bearer(req, NRPS_SCOPE);
    if (problem) return answer(res, 401, { error: problem });
    if (req.headers.accept !== 'application/vnd.ims.lti-nrps.v2.membershipcontainer+json')
      return answer(res, 406, { error: 'Accept' });
    const roster = rosters.get(id);
    if (!roster) return answer(res, 404, { error: 'no such roster' });
    const start = page * roster.pageSize;
    const members = roster.members.slice(start, start + roster.pageSize);
    const headers: Record<string, string> = {
      'Content-Type': 'application/vnd.ims.lti-nrps.v2.membershipcontainer+json',
    };
    if (start + roster.pageSize < roster.members.length)
      headers.Link = `<${services.url}/rosters/${id}/memberships?page=${page + 1}>; rel="next"`;
    answer(res, 200, { id: req.url, context: { id: `course-${id}` }, members }, headers);
  }

  const server: Server = createServer((req, res) => {
    const url = new URL(req.url!, services.url);
    const scoresPath = /^\/lineitems\/([^/]+)\/lineitem\/scores$/.exec(url.pathname);
    const rosterPath = /^\/rosters\/([^/]+)\/memberships$/.exec(url.pathname);
    const handle =
      req.method === 'POST' && url.pathname === '/token'
        ? token(req, res)
        : req.method === 'POST' && scoresPath
          ? score(req, res, `${services.url}/lineitems/${scoresPath[1]}/lineitem?${url.searchParams}`)
          : req.method === 'GET' && rosterPath
            ? memberships(req, res, rosterPath[1], Number(url.searchParams.get('page') ?? 0))
            : Promise.resolve(answer(res, 404, { error: 'not found' }));
    handle.catch((err) => {
      if (!res.headersSent) answer(res, 500, { error: String(err) });
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  services.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  services.tokenUrl = `${services.url}/token`;
  return services;
}
