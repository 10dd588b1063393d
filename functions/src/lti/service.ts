import { randomBytes, randomUUID } from 'node:crypto';
import { addAudit, requestMeta } from '../audit';
import {
  assertCanManageLtiPlatforms,
  assertOrganizationActive,
  assertOwnsDeepLinkSession,
  claimsFor,
  type Principal,
} from '../auth';
import { requireClient } from '../clients';
import { addMember, type Class, classNameKey, createClass, deleteClass, MAX_CLASSES_PER_TEST } from '../classes';
import { findTest, listTests, patchDelivery, type StoredTest } from '../exams';
import { auth } from '../firestore';
import { ApiError, badRequest, type CallContext, conflict, forbidden, notFound, type RequestOrigin } from '../shared';
import { provisionAccounts, type StoredProfile } from '../users';
import {
  CLAIM,
  contextKey,
  LTI_VERSION,
  platformPairKey,
  ltiProfile,
  readLaunch,
  REFUSAL_TEXT,
  roleForNewUser,
  uniqueClassName,
  type Launch,
  type LaunchContext,
  type LaunchPerson,
} from './claims';
import type { StoredLtiContext, StoredLtiPlatform, StoredLtiState } from './documents';
import type { LaunchInput, LoginInput, LtiPlatform, RegisterPlatformInput, UpdatePlatformInput } from './schemas';
import { decideLaunch, type FirstLaunch, type LaunchRefusal } from './launchDecision';
import * as store from './store';
import { browserCookie, browserKeyFor, browserKeyHash, browserKeyOf, browserRefusal } from './browserBinding';
import { signAsTool } from './toolKeys';
import { decodeIdToken, refusedToken, verifyIdToken } from './verify';

// The LTI 1.3 tool: an organization's platform registrations, the OIDC login,
// the launch (verified id_token → the organization's user, class and test),
// and deep linking (the admin picks a test; the tool signs the link back).

/** How long a login may take before its launch comes back. */
const STATE_TTL_MS = 10 * 60_000;
/** How long a deep-linking picker stays usable. */
const DEEP_LINK_TTL_MS = 15 * 60_000;

// The login URL names its registration (the key of its (issuer, client_id) pair): a platform that leaves
// client_id out of the login still finds its own, whoever else registers the same issuer.
const toolUrls = (baseUrl: string, registration?: string) => ({
  login_url: `${baseUrl}/api/lti/login${registration ? `?registration=${registration}` : ''}`,
  launch_url: `${baseUrl}/api/lti/launch`,
  jwks_url: `${baseUrl}/api/lti/jwks`,
  deep_linking_url: `${baseUrl}/api/lti/launch`,
});

const toReply = (p: StoredLtiPlatform, baseUrl: string): LtiPlatform => ({
  id: p.id,
  issuer: p.issuer,
  client_id: p.platform_client_id,
  deployment_ids: p.deployment_ids,
  auth_login_url: p.auth_login_url,
  auth_token_url: p.auth_token_url,
  jwks_url: p.jwks_url,
  name: p.name,
  instructors_as_admins: p.instructors_as_admins,
  created_at: p.created_at,
  updated_at: p.updated_at,
  tool: toolUrls(baseUrl, platformPairKey(p.issuer, p.platform_client_id)),
});

// ---------------------------------------------------------------- registrations

export async function registerPlatform(
  principal: Principal,
  clientId: string,
  input: RegisterPlatformInput,
  call: CallContext,
  baseUrl: string,
): Promise<LtiPlatform> {
  assertCanManageLtiPlatforms(principal, clientId);
  await requireClient(clientId);
  const now = new Date().toISOString();
  const platform: StoredLtiPlatform = {
    id: randomUUID(),
    client_id: clientId,
    issuer: input.issuer,
    platform_client_id: input.client_id,
    deployment_ids: input.deployment_ids,
    auth_login_url: input.auth_login_url,
    auth_token_url: input.auth_token_url,
    jwks_url: input.jwks_url,
    name: input.name ?? input.issuer.slice(0, 100),
    instructors_as_admins: input.instructors_as_admins ?? false,
    created_at: now,
    updated_at: now,
  };
  await store.insertPlatform(
    platform,
    platformPairKey(input.issuer, input.client_id),
    requestMeta(call),
    principal.uid,
  );
  return toReply(platform, baseUrl);
}

export async function listPlatforms(principal: Principal, clientId: string, baseUrl: string) {
  assertCanManageLtiPlatforms(principal, clientId);
  await requireClient(clientId);
  return { data: (await store.listPlatforms(clientId)).map((p) => toReply(p, baseUrl)) };
}

export async function updatePlatform(
  principal: Principal,
  clientId: string,
  platformId: string,
  input: UpdatePlatformInput,
  call: CallContext,
  baseUrl: string,
): Promise<LtiPlatform> {
  assertCanManageLtiPlatforms(principal, clientId);
  await requireClient(clientId);
  const updated = await store.updatePlatform(clientId, platformId, input, requestMeta(call), principal.uid);
  return toReply(updated, baseUrl);
}

export async function deletePlatform(principal: Principal, clientId: string, platformId: string, call: CallContext) {
  assertCanManageLtiPlatforms(principal, clientId);
  await requireClient(clientId);
  await store.deletePlatform(clientId, platformId, requestMeta(call), principal.uid);
}

// ---------------------------------------------------------------- login

/**
 * The OIDC login initiation: a state and nonce kept server side, bound to this browser (the hash of
 * the key its `__session` cookie gets), then off to the platform's authorization endpoint.
 */
export async function login(
  input: LoginInput,
  baseUrl: string,
  cookies: string | undefined,
): Promise<{ location: string; setCookie: string }> {
  const platform = await store.findPlatformForLogin(input.iss, input.client_id, input.registration);
  if (platform === 'ambiguous')
    throw badRequest('Several registrations have this issuer: the login must name client_id', [
      { path: 'client_id', message: 'Required for this issuer' },
    ]);
  if (!platform) throw notFound('No LTI platform is registered with this issuer and client_id');
  if (input.lti_deployment_id !== undefined && !platform.deployment_ids.includes(input.lti_deployment_id))
    throw badRequest(REFUSAL_TEXT.unknown_deployment, [
      { path: 'lti_deployment_id', message: 'Not registered', reason: 'unknown_deployment' },
    ]);
  const state = randomBytes(24).toString('base64url');
  const nonce = randomBytes(24).toString('base64url');
  const browserKey = browserKeyFor(browserKeyOf(cookies));
  const now = Date.now();
  await store.insertState(state, {
    client_id: platform.client_id,
    platform_id: platform.id,
    issuer: platform.issuer,
    platform_client_id: platform.platform_client_id,
    jwks_url: platform.jwks_url,
    deployment_ids: platform.deployment_ids,
    nonce,
    target_link_uri: input.target_link_uri,
    browser_hash: browserKeyHash(browserKey),
    expires_at_ms: now + STATE_TTL_MS,
    created_at: new Date(now).toISOString(),
  });
  const url = new URL(platform.auth_login_url);
  const query: Record<string, string> = {
    scope: 'openid',
    response_type: 'id_token',
    response_mode: 'form_post',
    prompt: 'none',
    client_id: platform.platform_client_id,
    redirect_uri: toolUrls(baseUrl).launch_url,
    login_hint: input.login_hint,
    state,
    nonce,
  };
  if (input.lti_message_hint !== undefined) query.lti_message_hint = input.lti_message_hint;
  for (const [k, v] of Object.entries(query)) url.searchParams.set(k, v);
  const setCookie = browserCookie(browserKey, {
    secure: baseUrl.startsWith('https:'),
    maxAgeS: STATE_TTL_MS / 1000,
  });
  return { location: url.toString(), setCookie };
}

// ---------------------------------------------------------------- launch

const META = (origin: RequestOrigin) => requestMeta(origin);

/** A platform user's new account in the organization (Auth account with its claims, then profile and mapping). */
async function launchUser(
  clientId: string,
  platform: StoredLtiPlatform,
  person: LaunchPerson,
  uid: string,
  origin: RequestOrigin,
): Promise<StoredProfile> {
  // Never promoted later: the role is decided once, here, and claims of later launches do not change it.
  const role = roleForNewUser(person, platform.instructors_as_admins);
  const displayName = person.name ?? person.email ?? `LTI user ${person.sub.slice(0, 40)}`;
  const account = { uid, displayName, ...(person.email ? { email: person.email } : {}) };
  return provisionAccounts([account], {
    role,
    clientId,
    // The email belongs to another account (this organization's or another's), or Auth refuses it: this one goes without it.
    emailIfFree: true,
    // A first launch that stopped after the account: the account is ours (its uid is derived from the user).
    uidTakenIsSameAccount: true,
    write: async ([provisioned]) => {
      const now = new Date().toISOString();
      const existing = provisioned.made ? undefined : await auth.getUser(uid);
      const profile = ltiProfile(
        { uid, display_name: displayName, role, client_id: clientId },
        { account: existing ? existing.email : provisioned.email, claimed: person.email },
        now,
      );
      if (existing) {
        const claimed = existing.customClaims?.role;
        if (claimed !== 'student' && claimed !== 'client_admin')
          await auth.setCustomUserClaims(uid, claimsFor(role, clientId));
        else profile.role = claimed;
      }
      return store.insertLtiUser(
        clientId,
        profile,
        { platform_id: platform.id, issuer: platform.issuer, sub: person.sub, uid, created_at: now },
        META(origin),
      );
    },
  });
}

/** The class of the launch's first course: made with the course's title (made unique) and mapped. */
async function courseClass(
  clientId: string,
  platform: StoredLtiPlatform,
  course: LaunchContext,
  membershipsUrl: string | null,
  origin: RequestOrigin,
): Promise<StoredLtiContext> {
  const candidates = [course.title, ...Array.from({ length: 9 }, (_, i) => `${course.title.slice(0, 94)} (${i + 2})`)];
  const taken = await store.takenClassNameKeys(
    clientId,
    candidates.map((n) => classNameKey(n)),
  );
  const name = uniqueClassName(course.title, (n) => taken.has(classNameKey(n)));
  const now = new Date().toISOString();
  const cls: Class = {
    id: randomUUID(),
    client_id: clientId,
    name,
    code: null,
    member_count: 0,
    created_at: now,
    updated_at: now,
  };
  const audit = { meta: META(origin), actorId: null };
  await createClass(cls, audit);
  const key = contextKey(platform.issuer, course.id);
  const { context, created } = await store.insertContext(clientId, key, {
    platform_id: platform.id,
    issuer: platform.issuer,
    context_id: course.id,
    title: course.title,
    class_id: cls.id,
    memberships_url: membershipsUrl,
    roster_synced_at: null,
    created_at: now,
  });
  // A concurrent first launch from the same course mapped it first: its class stands, ours goes.
  if (!created) await deleteClass(clientId, cls.id, audit).catch(() => undefined);
  return context;
}

/** The test, assigned to the course's class when it is not yet (the course's students see it; others do not). */
async function assignToClass(clientId: string, test: StoredTest, classId: string, origin: RequestOrigin) {
  if ((test.assigned_class_ids ?? []).includes(classId)) return;
  if ((test.assigned_class_ids ?? []).length >= MAX_CLASSES_PER_TEST)
    throw conflict(
      `The test is assigned to ${MAX_CLASSES_PER_TEST} classes, the most it may be; it cannot be linked to another course`,
    );
  const now = new Date().toISOString();
  await patchDelivery(
    clientId,
    test.id,
    (current) => ({
      ...current,
      assigned_class_ids: [...new Set([...(current.assigned_class_ids ?? []), classId])],
      updated_at: now,
    }),
    (tx, before, after) => {
      addAudit(tx, META(origin), {
        type: 'test_assignment_changed',
        userId: '',
        clientId,
        actorId: null,
        details: {
          test_id: after.id,
          from: before.assigned_class_ids ?? [],
          to: after.assigned_class_ids ?? [],
          added: [classId],
          removed: [],
          via: 'lti',
        },
      });
      return undefined;
    },
    [classId],
  );
}

// A user the launch may not act for (a Learner deep linking) is forbidden; the rest are malformed launches.
const launchRefused = (reason: keyof typeof REFUSAL_TEXT) => {
  const details = [{ path: 'body.id_token', message: REFUSAL_TEXT[reason], reason }];
  return reason === 'deep_linking_role'
    ? new ApiError('FORBIDDEN', REFUSAL_TEXT[reason], details)
    : badRequest(REFUSAL_TEXT[reason], details);
};

const testNotHere = () =>
  notFound('The linked test is not a published test of this organization; link a test again through deep linking');

/** The launch's one transaction: the state and nonce spent, what it found, and decideLaunch's verdict on it. */
async function consume(stateId: string, state: StoredLtiState, request: Launch) {
  try {
    return await store.consumeLaunch(
      {
        state: stateId,
        clientId: state.client_id,
        platformId: state.platform_id,
        issuer: state.issuer,
        sub: request.person.sub,
        nonce: state.nonce,
        contextId: request.context?.id ?? null,
        testId: request.kind === 'resource_link' ? request.testId : null,
      },
      (facts) => decideLaunch(request, facts, new Date().toISOString()),
    );
  } catch (err) {
    if (err instanceof store.LaunchRefused) {
      if (err.reason === 'state') throw refusedToken('state_mismatch');
      if (err.reason === 'nonce') throw refusedToken('nonce_reused');
      throw notFound('The platform of this login is no longer registered');
    }
    throw err;
  }
}

function refuse(refusal: LaunchRefusal | null, facts: store.LaunchFacts): void {
  if (refusal === 'unknown_deployment') throw launchRefused('unknown_deployment');
  if (refusal === 'organization_inactive') assertOrganizationActive(facts.client, 'Client');
  if (refusal === 'account_disabled') throw forbidden('This account is disabled in the organization');
  if (refusal === 'test_not_here') throw testNotHere();
}

/**
 * The launch: the state consumed once, the id_token verified against the platform, then the
 * organization's user, the course's class and the test put in place. Answers where the browser goes.
 */
export async function launch(input: LaunchInput, origin: RequestOrigin, cookies: string | undefined): Promise<string> {
  decodeIdToken(input.id_token);
  const state = await store.findState(input.state);
  if (!state) throw refusedToken('state_mismatch');
  // (A state without the registration's copy or the browser's hash was written before they existed: log in again.)
  if (state.expires_at_ms < Date.now() || !state.jwks_url || !state.browser_hash) throw refusedToken('state_expired');
  // Only the browser that started the login may finish it: no one's launch signs another's browser in.
  const notThisBrowser = browserRefusal(state.browser_hash, browserKeyOf(cookies));
  if (notThisBrowser) throw refusedToken(notThisBrowser);
  // Verified with the registration as the login copied it: no read before the signature is checked.
  const payload = (await verifyIdToken(input.id_token, state, state.nonce)) as Record<string, unknown>;
  const read = readLaunch(payload, state.deployment_ids);
  if ('refusal' in read) throw launchRefused(read.refusal);
  const request: Launch = read.launch;
  const clientId = state.client_id;

  const { facts, decision } = await consume(input.state, state, request);
  const platform = facts.platform;
  refuse(decision.refusal, facts);
  if (decision.firstLaunch) await completeLaunch(clientId, platform, request, facts, decision.firstLaunch, origin);
  const token = await auth.createCustomToken(facts.uid);
  if (request.kind === 'deep_linking') {
    const sessionId = randomBytes(24).toString('base64url');
    const now = Date.now();
    const classId = request.context ? ((await classOf(clientId, platform, request.context, facts)) ?? null) : null;
    await store.insertDeepLink(sessionId, {
      client_id: clientId,
      platform_id: platform.id,
      uid: facts.uid,
      deployment_id: request.deploymentId,
      return_url: request.returnUrl,
      data: request.data,
      class_id: classId,
      expires_at_ms: now + DEEP_LINK_TTL_MS,
      created_at: new Date(now).toISOString(),
    });
    return `/lti/deep-linking#session=${encodeURIComponent(sessionId)}&token=${encodeURIComponent(token)}`;
  }
  return `/lti#token=${encodeURIComponent(token)}&test_id=${encodeURIComponent(request.testId)}`;
}

/** The class completeLaunch mapped (read back when it was made in this launch). */
async function classOf(
  clientId: string,
  platform: StoredLtiPlatform,
  course: LaunchContext,
  facts: store.LaunchFacts,
): Promise<string | undefined> {
  if (facts.context) return facts.context.class_id;
  return (await store.findContext(clientId, contextKey(platform.issuer, course.id)))?.class_id;
}

/** What a first launch adds: the account, the course's class and membership, the assignment, the outcome. */
async function completeLaunch(
  clientId: string,
  platform: StoredLtiPlatform,
  request: Launch,
  facts: store.LaunchFacts,
  plan: FirstLaunch,
  origin: RequestOrigin,
): Promise<void> {
  const profile =
    plan.user === 'reuse' ? facts.profile! : await launchUser(clientId, platform, request.person, facts.uid, origin);
  if (profile.disabled) throw forbidden('This account is disabled in the organization');
  const context =
    plan.courseClass === 'reuse'
      ? facts.context
      : plan.courseClass === 'create'
        ? await courseClass(clientId, platform, request.context!, request.membershipsUrl, origin)
        : undefined;
  // (A new account's role is known only now: one an earlier launch left keeps its own.)
  if (
    context &&
    plan.membership === 'add' &&
    profile.role === 'student' &&
    !(profile.class_ids ?? []).includes(context.class_id)
  ) {
    await addMember(clientId, context.class_id, profile.uid, { meta: META(origin), actorId: null });
  }
  if (request.kind !== 'resource_link') return;
  const test = facts.test!;
  if (context && plan.assignment === 'add') await assignToClass(clientId, test, context.class_id, origin);
  if (profile.role === 'student' && request.lineitem)
    await store.setOutcome(clientId, test.id, profile.uid, {
      platform_id: platform.id,
      lineitem: request.lineitem,
      user_sub: request.person.sub,
      updated_at: new Date().toISOString(),
    });
}

// ---------------------------------------------------------------- deep linking

async function requireSession(principal: Principal, sessionId: string) {
  const session = await store.findDeepLink(sessionId);
  if (!session || session.expires_at_ms < Date.now())
    throw notFound('This deep-linking session has expired or does not exist; start again from the course');
  assertOwnsDeepLinkSession(principal, { uid: session.uid, clientId: session.client_id });
  return session;
}

export async function deepLinkTests(principal: Principal, sessionId: string) {
  const session = await requireSession(principal, sessionId);
  const { data } = await listTests(session.client_id, { status: 'published' }, { page: 1, limit: 100 });
  return {
    data: data.map((t) => ({
      id: t.id,
      name: t.test_name,
      description: t.description ?? null,
      question_count: t.question_ids.length + (t.pools ?? []).reduce((n, p) => n + p.draw, 0),
    })),
  };
}

/** The signed LtiDeepLinkingResponse for the chosen test: a resource link carrying test_id, with a line item. */
export async function deepLinkChoose(principal: Principal, sessionId: string, testId: string, origin: RequestOrigin) {
  const session = await requireSession(principal, sessionId);
  const [platform, test] = await Promise.all([
    store.findPlatform(session.client_id, session.platform_id),
    findTest(session.client_id, testId),
  ]);
  if (!platform) throw notFound('The platform of this session is no longer registered');
  if (!test || test.status !== 'published') throw testNotHere();
  if (session.class_id) await assignToClass(session.client_id, test, session.class_id, origin);
  const jwt = await signAsTool(
    {
      iss: platform.platform_client_id,
      aud: platform.issuer,
      nonce: randomBytes(16).toString('base64url'),
      [CLAIM.messageType]: 'LtiDeepLinkingResponse',
      [CLAIM.version]: LTI_VERSION,
      [CLAIM.deploymentId]: session.deployment_id,
      ...(session.data !== null ? { [CLAIM.dlData]: session.data } : {}),
      [CLAIM.dlContentItems]: [
        {
          type: 'ltiResourceLink',
          title: test.test_name,
          ...(test.description ? { text: test.description } : {}),
          custom: { test_id: test.id },
          lineItem: { scoreMaximum: 100, label: test.test_name, resourceId: test.id },
        },
      ],
    },
    5 * 60,
  );
  return { return_url: session.return_url, jwt };
}
