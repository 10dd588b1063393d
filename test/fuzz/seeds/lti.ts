import { randomUUID } from 'node:crypto';
import { adminDb } from '../../support/admin';
import { createClientDoc, createUser } from '../../support/fixtures';
import { startPlatform } from '../../lti/platform';
import { publishedTest } from './attempts';
import type { FuzzSeedGroup, FuzzWorld } from './types';

// Seeds for the LTI tool: registrations (on an organization of their own, so
// the 20-platform bound is never reached by another test), the login and launch
// (no bearer token; a launch whose state matches no login is refused, as it
// must be), the JWKS, and a deep-linking session of the tenant's admin.

interface Prepared {
  client: string;
  admin: string;
  platformId: string;
  /** A registration of `client` of its own, which the edit's fuzz may change at will. */
  editedPlatformId: string;
  issuer: string;
  platformClientId: string;
  authUrl: string;
  session: string;
  testId: string;
}

export const seeds: FuzzSeedGroup = {
  async prepare(w: FuzzWorld): Promise<Prepared> {
    const client = (await createClientDoc()).id;
    const admin = await createUser('client_admin', client);
    const platform = await startPlatform();
    // Its authorization endpoint answers 200 to anything: the fuzz follows the login's redirect.
    platform.route('GET', '/ok', (_req, res) => void res.writeHead(200, { 'Content-Type': 'text/plain' }).end('ok'));
    const platformId = randomUUID();
    const now = new Date().toISOString();
    const issuer = platform.issuer;
    await adminDb.doc(`clients/${w.tenant.clientId}/lti_platforms/${platformId}`).set({
      id: platformId,
      client_id: w.tenant.clientId,
      issuer,
      platform_client_id: platform.clientId,
      deployment_ids: [platform.deploymentId],
      auth_login_url: `${platform.baseUrl}/ok`,
      auth_token_url: platform.authTokenUrl,
      jwks_url: platform.jwksUrl,
      name: 'Fuzz platform',
      instructors_as_admins: false,
      created_at: now,
      updated_at: now,
    });
    const editedPlatformId = randomUUID();
    await adminDb.doc(`clients/${client}/lti_platforms/${editedPlatformId}`).set({
      id: editedPlatformId,
      client_id: client,
      issuer: `https://edited-${editedPlatformId.slice(0, 8)}.example`,
      platform_client_id: randomUUID(),
      deployment_ids: ['1'],
      auth_login_url: 'https://lms.example/auth',
      auth_token_url: 'https://lms.example/token',
      jwks_url: 'https://lms.example/jwks',
      name: 'Edited by the fuzz',
      instructors_as_admins: false,
      created_at: now,
      updated_at: now,
    });
    const { platformPairKey } = await import('../../../functions/src/lti/claims');
    await adminDb.doc(`lti_platform_keys/${platformPairKey(issuer, platform.clientId)}`).set({
      client_id: w.tenant.clientId,
      platform_id: platformId,
      issuer,
      platform_client_id: platform.clientId,
      created_at: now,
    });
    const { testId } = await publishedTest(w.tenant.clientId, w.tenant.admin.uid);
    const session = randomUUID();
    await adminDb.doc(`lti_deep_links/${session}`).set({
      client_id: w.tenant.clientId,
      platform_id: platformId,
      uid: w.tenant.admin.uid,
      deployment_id: platform.deploymentId,
      return_url: `${platform.baseUrl}/deep-link-return`,
      data: null,
      class_id: null,
      expires_at_ms: Date.now() + 3600_000,
      created_at: now,
    });
    return {
      client,
      admin: admin.token,
      platformId,
      editedPlatformId,
      issuer,
      platformClientId: platform.clientId,
      authUrl: `${platform.baseUrl}/ok`,
      session,
      testId,
    };
  },
  seeds: [
    {
      operation: 'post /api/clients/{clientId}/lti/platforms',
      request: (_w, p: Prepared) => ({
        token: p.admin,
        params: { clientId: p.client },
        body: {
          issuer: `https://lms-${randomUUID().slice(0, 8)}.example`,
          client_id: randomUUID(),
          deployment_ids: ['1'],
          auth_login_url: 'https://lms.example/auth',
          auth_token_url: 'https://lms.example/token',
          jwks_url: 'https://lms.example/jwks',
          name: 'Moodle',
          instructors_as_admins: false,
        },
      }),
    },
    {
      operation: 'get /api/clients/{clientId}/lti/platforms',
      request: (_w, p: Prepared) => ({ token: p.admin, params: { clientId: p.client } }),
    },
    {
      operation: 'patch /api/clients/{clientId}/lti/platforms/{platformId}',
      request: (_w, p: Prepared) => ({
        token: p.admin,
        params: { clientId: p.client, platformId: p.editedPlatformId },
        body: {
          name: 'Moodle of the school',
          deployment_ids: ['1', '2'],
          auth_login_url: 'https://lms.example/auth2',
          auth_token_url: 'https://lms.example/token2',
          jwks_url: 'https://lms.example/jwks2',
          instructors_as_admins: true,
        },
      }),
    },
    {
      operation: 'delete /api/clients/{clientId}/lti/platforms/{platformId}',
      request: (_w, p: Prepared) => ({ token: p.admin, params: { clientId: p.client, platformId: randomUUID() } }),
    },
    {
      operation: 'get /api/lti/login',
      request: (_w, p: Prepared) => ({
        query: {
          iss: p.issuer,
          login_hint: 'hint',
          target_link_uri: 'https://tool.example/api/lti/launch',
          lti_message_hint: 'm',
          client_id: p.platformClientId,
        },
      }),
    },
    {
      operation: 'post /api/lti/login',
      request: (_w, p: Prepared) => ({
        body: { iss: p.issuer, login_hint: 'hint', target_link_uri: 'https://tool.example/x', client_id: p.platformClientId },
      }),
    },
    {
      operation: 'post /api/lti/launch',
      request: () => ({
        body: {
          id_token:
            'eyJhbGciOiJSUzI1NiIsInR5cCI6IkpXVCJ9.eyJpc3MiOiJodHRwczovL2xtcy5leGFtcGxlIiwic3ViIjoiMSJ9.c2lnbmF0dXJl',
          state: randomUUID(),
        },
      }),
    },
    { operation: 'get /api/lti/jwks', request: () => ({}) },
    { operation: 'post /api/lti/jwks/rotate', request: (w) => ({ token: w.superAdmin.token }) },
    {
      operation: 'get /api/lti/deep-linking/{sessionId}/tests',
      request: (w, p: Prepared) => ({ token: w.tenant.admin.token, params: { sessionId: p.session } }),
    },
    {
      operation: 'post /api/lti/deep-linking/{sessionId}',
      request: (w, p: Prepared) => ({
        token: w.tenant.admin.token,
        params: { sessionId: p.session },
        body: { test_id: p.testId },
      }),
    },
  ],
};
