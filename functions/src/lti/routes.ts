import { z } from 'zod';
import { defineRoute, type RouteDefinition } from '../http';
import { launchErrorPage } from './errorPage';
import {
  DeepLinkBody,
  DeepLinkParams,
  DeepLinkReply,
  DeepLinkTests,
  Jwks,
  LaunchBody,
  LoginParams,
  LtiPlatform,
  LtiPlatformList,
  MAX_PLATFORMS_PER_CLIENT,
  PlatformParams,
  PlatformsParams,
  RegisterPlatformBody,
  UpdatePlatformBody,
} from './schemas';
import * as service from './service';
import { rotateToolKey, toolJwks } from './toolKeys';

const ADMINS = ['super_admin', 'client_admin'] as const;
const WHO =
  'The organization’s Client Admin or a Super Admin; another organization’s id answers 403, an unknown organization 404.';
const origin = (baseUrl: string | undefined) => baseUrl ?? '';

const loginReply = ({ location, setCookie }: { location: string; setCookie: string }) => ({
  status: 302,
  redirect: location,
  setCookie,
});

const loginDescription =
  'OIDC third-party initiated login (the platform’s "Initiate login URL"). Finds the registration by iss and client_id ' +
  '(client_id may be left out when one registration has the issuer), keeps a state and a nonce server side for 10 minutes, ' +
  'and answers 302 to the platform’s auth_login_url with scope=openid, response_type=id_token, response_mode=form_post, ' +
  'prompt=none, redirect_uri (the launch URL), login_hint, lti_message_hint, state and nonce. ' +
  'It sets the cookie __session (HttpOnly, Path=/api/lti/, 10 minutes; Secure and SameSite=None over https) holding a random key whose hash the state keeps: ' +
  'the launch must come back with it (a browser that sends one keeps its key). No bearer token. ' +
  'A browser gets errors as a page, an API client as JSON.';

export const ltiRoutes: RouteDefinition[] = [
  defineRoute({
    method: 'post',
    path: '/clients/{clientId}/lti/platforms',
    summary: 'Register an LTI 1.3 platform',
    description: `The pair (issuer, client_id) is registered once across all organizations (409 CONFLICT otherwise); an organization registers at most ${MAX_PLATFORMS_PER_CLIENT} platforms (409). The reply’s tool holds the URLs to enter in the platform. Audited as lti_platform_registered. ${WHO}`,
    tag: 'Integrations',
    access: ADMINS,
    sensitive: true,
    params: PlatformsParams,
    body: RegisterPlatformBody,
    success: { status: 201, description: 'The registration', schema: LtiPlatform },
    errors: ['NOT_FOUND', 'CONFLICT'],
    handler: async ({ principal, params, body, call, baseUrl }) => ({
      status: 201,
      body: await service.registerPlatform(principal, params.clientId, body, call, origin(baseUrl)),
    }),
  }),
  defineRoute({
    method: 'get',
    path: '/clients/{clientId}/lti/platforms',
    summary: 'List the LTI platforms of an organization',
    description: `Oldest first. ${WHO}`,
    tag: 'Integrations',
    access: ADMINS,
    params: PlatformsParams,
    success: { status: 200, description: 'The registrations', schema: LtiPlatformList },
    errors: ['NOT_FOUND'],
    handler: async ({ principal, params, baseUrl }) => ({
      status: 200,
      body: await service.listPlatforms(principal, params.clientId, origin(baseUrl)),
    }),
  }),
  defineRoute({
    method: 'patch',
    path: '/clients/{clientId}/lti/platforms/{platformId}',
    summary: 'Edit an LTI platform registration',
    description:
      'Changes its name, deployment ids, the platform’s URLs or whether Instructors become admins; a field left out keeps its value. ' +
      'The issuer and client_id name the registration and cannot change: another pair is another registration (register it, delete this one). ' +
      `Launches take the new values from the next login. Audited as lti_platform_updated, naming the fields sent. ${WHO}`,
    tag: 'Integrations',
    access: ADMINS,
    sensitive: true,
    params: PlatformParams,
    body: UpdatePlatformBody,
    success: { status: 200, description: 'The registration as stored', schema: LtiPlatform },
    errors: ['NOT_FOUND'],
    handler: async ({ principal, params, body, call, baseUrl }) => ({
      status: 200,
      body: await service.updatePlatform(principal, params.clientId, params.platformId, body, call, origin(baseUrl)),
    }),
  }),
  defineRoute({
    method: 'delete',
    path: '/clients/{clientId}/lti/platforms/{platformId}',
    summary: 'Delete an LTI platform registration',
    description: `Launches from it are refused from then on; its users, classes and outcomes stay. Audited as lti_platform_deleted. ${WHO}`,
    tag: 'Integrations',
    access: ADMINS,
    sensitive: true,
    params: PlatformParams,
    success: { status: 204, description: 'Deleted' },
    errors: ['NOT_FOUND'],
    handler: async ({ principal, params, call }) => {
      await service.deletePlatform(principal, params.clientId, params.platformId, call);
      return { status: 204 };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/lti/login',
    summary: 'LTI 1.3 login initiation (query)',
    description: loginDescription,
    tag: 'Integrations',
    access: 'public',
    query: LoginParams,
    errorPage: launchErrorPage,
    success: { status: 302, description: 'To the platform’s authorization endpoint' },
    errors: ['NOT_FOUND', 'SERVICE_UNAVAILABLE'],
    handler: async ({ query, baseUrl, cookies }) => loginReply(await service.login(query, origin(baseUrl), cookies)),
  }),
  defineRoute({
    method: 'post',
    path: '/lti/login',
    summary: 'LTI 1.3 login initiation (form post)',
    description: loginDescription,
    tag: 'Integrations',
    access: 'public',
    form: true,
    body: LoginParams,
    errorPage: launchErrorPage,
    success: { status: 302, description: 'To the platform’s authorization endpoint' },
    errors: ['NOT_FOUND', 'SERVICE_UNAVAILABLE'],
    handler: async ({ body, baseUrl, cookies }) => loginReply(await service.login(body, origin(baseUrl), cookies)),
  }),
  defineRoute({
    method: 'post',
    path: '/lti/launch',
    summary: 'LTI 1.3 launch (the id_token form post)',
    description:
      'The state is consumed once, and only with the __session cookie its login set in this browser; the id_token is verified against the platform’s JWKS: signature, iss, aud (azp when aud names several), exp, ' +
      'iat (at most a minute ahead, at most an hour before exp), the login’s nonce (used once), a registered deployment_id, LTI version 1.3.0, sub, and message type LtiResourceLinkRequest or LtiDeepLinkingRequest ' +
      '(deep linking only from an Instructor or Administrator). ' +
      'Each refusal names its check in details[0].reason: malformed, bad_signature, wrong_issuer, wrong_audience, expired, issued_in_future, lifetime_too_long, nonce_mismatch, nonce_reused, ' +
      'state_mismatch, state_expired, cookie_missing, cookie_mismatch, unknown_deployment, wrong_version, unknown_message_type, missing_sub, missing_test, deep_linking_role (403), jwks_invalid, jwks_too_large. ' +
      'A JWKS that is down answers 503 with Retry-After. Then the platform user becomes (or is found as) a user of the organization (a Student; an Instructor a Client Admin only when the registration has instructors_as_admins), ' +
      'the course a class (made on its first launch, the student added), the linked test assigned to that class; ' +
      '302 to /lti#token=<custom token>&test_id=<id>, or for deep linking to /lti/deep-linking#session=<id>&token=<custom token>. ' +
      'A browser gets errors as a page, an API client as JSON.',
    tag: 'Integrations',
    access: 'public',
    form: true,
    body: LaunchBody,
    errorPage: launchErrorPage,
    success: { status: 302, description: 'To the web app, signed in' },
    errors: ['UNAUTHORIZED', 'FORBIDDEN', 'NOT_FOUND', 'CONFLICT', 'SERVICE_UNAVAILABLE'],
    handler: async ({ body, call, cookies }) => ({ status: 302, redirect: await service.launch(body, call, cookies) }),
  }),
  defineRoute({
    method: 'get',
    path: '/lti/jwks',
    summary: 'The tool’s public keys (JWKS)',
    description: 'RS256 keys: the signing key and the ones before it (kept published through a rotation).',
    tag: 'Integrations',
    access: 'public',
    success: { status: 200, description: 'A JSON Web Key Set', schema: Jwks },
    errors: ['SERVICE_UNAVAILABLE'],
    handler: async () => ({ status: 200, body: await toolJwks() }),
  }),
  defineRoute({
    method: 'post',
    path: '/lti/jwks/rotate',
    summary: 'Rotate the tool’s signing key',
    description:
      'A new RS256 key signs from now on; the previous ones stay in the JWKS (the newest three), so platforms that cached them keep verifying. Super Admins only.',
    tag: 'Integrations',
    access: ['super_admin'],
    sensitive: true,
    success: { status: 200, description: 'The new key’s id', schema: z.object({ kid: z.string() }) },
    handler: async () => ({ status: 200, body: await rotateToolKey() }),
  }),
  defineRoute({
    method: 'get',
    path: '/lti/deep-linking/{sessionId}/tests',
    summary: 'The tests a deep-linking request may link',
    description:
      'The organization’s published tests (newest first, at most 100), for the user the deep-linking launch signed in (another user: 403; an expired session: 404).',
    tag: 'Integrations',
    access: ['super_admin', 'client_admin', 'student'],
    params: DeepLinkParams,
    success: { status: 200, description: 'The tests', schema: DeepLinkTests },
    errors: ['NOT_FOUND'],
    handler: async ({ principal, params }) => ({
      status: 200,
      body: await service.deepLinkTests(principal, params.sessionId),
    }),
  }),
  defineRoute({
    method: 'post',
    path: '/lti/deep-linking/{sessionId}',
    summary: 'Link a test: the signed deep-linking response',
    description:
      'A LtiDeepLinkingResponse signed by the tool (iss: the platform’s client_id, aud: its issuer) with one ltiResourceLink (custom test_id, a lineItem), for the page to form-post as JWT to return_url. The test is assigned to the course’s class.',
    tag: 'Integrations',
    access: ['super_admin', 'client_admin', 'student'],
    params: DeepLinkParams,
    body: DeepLinkBody,
    success: { status: 200, description: 'Where to post, and what', schema: DeepLinkReply },
    errors: ['NOT_FOUND', 'CONFLICT'],
    handler: async ({ principal, params, body, call }) => ({
      status: 200,
      body: await service.deepLinkChoose(principal, params.sessionId, body.test_id, call),
    }),
  }),
];
