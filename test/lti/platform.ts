import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT, type JWK, type JWTPayload, type KeyLike } from 'jose';

// An LTI 1.3 platform (an LMS) written for the tests with jose: its own RS256
// keys and JWKS served over local HTTP, an authorization endpoint that takes
// the tool's login redirect and form-posts the id_token back, and builders of
// the messages it launches with. Extra endpoints (a token endpoint, line
// items) are added with `route`.

// The tool calls this platform on loopback, as the functions on the emulators do (their .env sets
// ALLOW_LOOPBACK_URLS): the same policy for the tool's code run in this process.
process.env.ALLOW_LOOPBACK_URLS = 'true';

const LTI = 'https://purl.imsglobal.org/spec/lti/claim/';
export const INSTRUCTOR = 'http://purl.imsglobal.org/vocab/lis/v2/membership#Instructor';
export const LEARNER = 'http://purl.imsglobal.org/vocab/lis/v2/membership#Learner';

/**
 * How the JWKS endpoint answers: its keys, an HTML page, a 503, nothing at all (connection closed),
 * its keys padded past 64 KB, or its keys a few bytes at a time over eight seconds.
 */
export type JwksMode = 'ok' | 'html' | 'down' | 'hang' | 'huge' | 'trickle';

export interface LaunchUser {
  sub: string;
  name?: string;
  email?: string;
  roles?: string[];
}

export interface Course {
  id: string;
  title?: string;
  label?: string;
}

type Handler = (req: IncomingMessage, res: ServerResponse, body: string) => void | Promise<void>;

export interface TestPlatform {
  issuer: string;
  clientId: string;
  deploymentId: string;
  baseUrl: string;
  jwksUrl: string;
  authLoginUrl: string;
  authTokenUrl: string;
  jwksMode: JwksMode;
  /** How many times its JWKS was read. */
  jwksReads: number;
  /** The authorization requests the tool sent (its login's redirect), newest last. */
  authRequests: URL[];
  /** What the authorization endpoint launches with next, per login_hint (the browser flow). */
  pending: Map<string, (nonce: string) => Promise<string>>;
  registration(extra?: Record<string, unknown>): Record<string, unknown>;
  /** Signs as the platform (or with `key`, another platform's). */
  sign(
    payload: JWTPayload,
    opts?: { key?: KeyLike; kid?: string; expiresIn?: string | number; issuedAt?: number },
  ): Promise<string>;
  resourceLink(opts: {
    user: LaunchUser;
    course?: Course | null;
    testId?: string | null;
    nonce: string;
    lineitem?: string;
    membershipsUrl?: string;
  }): JWTPayload;
  deepLinking(opts: {
    user: LaunchUser;
    course?: Course | null;
    nonce: string;
    returnUrl?: string;
    data?: string;
  }): JWTPayload;
  route(method: string, path: string, handler: Handler): void;
  rotateKeys(): Promise<void>;
  close(): Promise<void>;
}

const readBody = (req: IncomingMessage): Promise<string> =>
  new Promise((resolve, reject) => {
    let data = '';
    req.setEncoding('utf8');
    req.on('data', (c) => (data += c));
    req.on('end', () => resolve(data));
    req.on('error', reject);
  });

export const escapeHtml = (s: string) => s.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);

/** An auto-submitting form, as a platform answers the tool's authorization request (response_mode=form_post). */
export const autoPostForm = (action: string, fields: Record<string, string>) =>
  `<!doctype html><html><body><form id="f" method="post" action="${escapeHtml(action)}">${Object.entries(fields)
    .map(([k, v]) => `<input type="hidden" name="${escapeHtml(k)}" value="${escapeHtml(v)}">`)
    .join(
      '',
    )}<noscript><button>Continue</button></noscript></form><script>document.getElementById('f').submit()</script></body></html>`;

export async function startPlatform(opts: { clientId?: string; deploymentId?: string } = {}): Promise<TestPlatform> {
  let { privateKey, publicKey } = await generateKeyPair('RS256');
  let kid = randomUUID();
  const routes = new Map<string, Handler>();
  const server: Server = createServer(async (req, res) => {
    try {
      const url = new URL(req.url ?? '/', platform.baseUrl);
      const body = await readBody(req);
      const handler = routes.get(`${req.method} ${url.pathname}`);
      if (handler) return await handler(req, res, body);
      res.writeHead(404).end();
    } catch (err) {
      res.writeHead(500).end(String(err));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const baseUrl = `http://127.0.0.1:${port}`;
  // Each platform its own issuer (a path), so several run on one port range without clashing.
  const issuer = `${baseUrl}/platform/${randomUUID().slice(0, 8)}`;

  const platform: TestPlatform = {
    issuer,
    clientId: opts.clientId ?? `tool-${randomUUID().slice(0, 8)}`,
    deploymentId: opts.deploymentId ?? 'deployment-1',
    baseUrl,
    jwksUrl: `${baseUrl}/jwks`,
    authLoginUrl: `${baseUrl}/auth`,
    authTokenUrl: `${baseUrl}/token`,
    jwksMode: 'ok',
    jwksReads: 0,
    authRequests: [],
    pending: new Map(),
    registration: (extra = {}) => ({
      issuer,
      client_id: platform.clientId,
      deployment_ids: [platform.deploymentId],
      auth_login_url: platform.authLoginUrl,
      auth_token_url: platform.authTokenUrl,
      jwks_url: platform.jwksUrl,
      ...extra,
    }),
    async sign(payload, o = {}) {
      return new SignJWT(payload)
        .setProtectedHeader({ alg: 'RS256', kid: o.kid ?? kid, typ: 'JWT' })
        .setIssuedAt(o.issuedAt)
        .setExpirationTime(o.expiresIn ?? '5m')
        .sign(o.key ?? privateKey);
    },
    resourceLink({ user, course, testId, nonce, lineitem, membershipsUrl }) {
      return {
        ...common(user, course, nonce),
        [`${LTI}message_type`]: 'LtiResourceLinkRequest',
        [`${LTI}resource_link`]: { id: `link-${testId ?? 'none'}`, title: 'A test' },
        [`${LTI}target_link_uri`]: 'https://tool.example/api/lti/launch',
        ...(testId !== null ? { [`${LTI}custom`]: { test_id: testId } } : {}),
        ...(lineitem
          ? {
              'https://purl.imsglobal.org/spec/lti-ags/claim/endpoint': {
                scope: [
                  'https://purl.imsglobal.org/spec/lti-ags/scope/lineitem',
                  'https://purl.imsglobal.org/spec/lti-ags/scope/score',
                ],
                lineitem,
                lineitems: `${baseUrl}/lineitems`,
              },
            }
          : {}),
        ...(membershipsUrl
          ? {
              'https://purl.imsglobal.org/spec/lti-nrps/claim/namesroleservice': {
                context_memberships_url: membershipsUrl,
                service_versions: ['2.0'],
              },
            }
          : {}),
      };
    },
    deepLinking({ user, course, nonce, returnUrl, data }) {
      return {
        ...common(user, course, nonce),
        [`${LTI}message_type`]: 'LtiDeepLinkingRequest',
        'https://purl.imsglobal.org/spec/lti-dl/claim/deep_linking_settings': {
          deep_link_return_url: returnUrl ?? `${baseUrl}/deep-link-return`,
          accept_types: ['ltiResourceLink'],
          accept_presentation_document_targets: ['iframe', 'window'],
          ...(data !== undefined ? { data } : {}),
        },
      };
    },
    route: (method, path, handler) => void routes.set(`${method} ${path}`, handler),
    async rotateKeys() {
      ({ privateKey, publicKey } = await generateKeyPair('RS256'));
      kid = randomUUID();
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };

  function common(user: LaunchUser, course: Course | null | undefined, nonce: string): JWTPayload {
    return {
      iss: issuer,
      aud: platform.clientId,
      sub: user.sub,
      nonce,
      ...(user.name ? { name: user.name } : {}),
      ...(user.email ? { email: user.email } : {}),
      [`${LTI}version`]: '1.3.0',
      [`${LTI}deployment_id`]: platform.deploymentId,
      [`${LTI}roles`]: user.roles ?? [LEARNER],
      ...(course ? { [`${LTI}context`]: { id: course.id, title: course.title, label: course.label } } : {}),
    };
  }

  routes.set('GET /jwks', async (_req, res) => {
    platform.jwksReads++;
    if (platform.jwksMode === 'html')
      return void res.writeHead(200, { 'Content-Type': 'text/html' }).end('<html><body>Login</body></html>');
    if (platform.jwksMode === 'down') return void res.writeHead(503).end('down');
    if (platform.jwksMode === 'hang') return void res.socket?.destroy();
    const jwk: JWK = { ...(await exportJWK(publicKey)), kid, alg: 'RS256', use: 'sig' };
    if (platform.jwksMode === 'huge') {
      // A valid key set, padded with keys of no use, past 64 KB.
      const padding = Array.from({ length: 200 }, (_, i) => ({ ...jwk, kid: `padding-${i}` }));
      return void res
        .writeHead(200, { 'Content-Type': 'application/json' })
        .end(JSON.stringify({ keys: [jwk, ...padding] }));
    }
    const body = JSON.stringify({ keys: [jwk] });
    if (platform.jwksMode === 'trickle') {
      // The first byte at once, the rest spread over eight seconds: a bound on the first byte alone never ends it.
      res.writeHead(200, { 'Content-Type': 'application/json' });
      const step = Math.ceil(body.length / 40);
      for (let at = 0; at < body.length && !res.destroyed; at += step) {
        res.write(body.slice(at, at + step));
        await new Promise((r) => setTimeout(r, 200));
      }
      return void res.end();
    }
    res.writeHead(200, { 'Content-Type': 'application/json' }).end(body);
  });

  // The authorization endpoint: checks the tool's request as a platform would, then form-posts the id_token back.
  routes.set('GET /auth', async (req, res) => {
    const url = new URL(req.url ?? '/', baseUrl);
    platform.authRequests.push(url);
    const q = url.searchParams;
    const problems = [
      q.get('scope') !== 'openid' && 'scope',
      q.get('response_type') !== 'id_token' && 'response_type',
      q.get('response_mode') !== 'form_post' && 'response_mode',
      q.get('prompt') !== 'none' && 'prompt',
      q.get('client_id') !== platform.clientId && 'client_id',
      !q.get('nonce') && 'nonce',
      !q.get('state') && 'state',
    ].filter(Boolean);
    const build = platform.pending.get(q.get('login_hint') ?? '');
    if (problems.length > 0 || !build) return void res.writeHead(400).end(`bad authorization request: ${problems}`);
    const idToken = await build(q.get('nonce')!);
    res
      .writeHead(200, { 'Content-Type': 'text/html' })
      .end(autoPostForm(q.get('redirect_uri')!, { id_token: idToken, state: q.get('state')! }));
  });
  return platform;
}
