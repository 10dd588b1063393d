import { z } from 'zod';
import { TestId } from '../exams';
import { checkOutboundUrl, loopbackPolicy, type UrlProblem } from '../outbound';
import { ClientId, MAX_ID_LENGTH } from '../shared';
import { MAX_ID_TOKEN_LENGTH } from './claims';

// Pure: the LTI tool's request and reply shapes (docs/api.md "LTI 1.3").

export const MAX_PLATFORMS_PER_CLIENT = 20;
export const MAX_DEPLOYMENTS = 20;
const MAX_URL = 2000;

/** A refused platform URL, as registration says it. */
const PLATFORM_URL_WORDS: Record<UrlProblem, string> = {
  not_url: 'Not a URL',
  credentials: 'A URL with credentials is not accepted',
  // Loopback and plain http are for the emulators only: a real platform is https.
  loopback: 'A loopback address is accepted on the emulators only',
  not_https: 'Must be an https URL',
  // The tool fetches these (keys, tokens): an address literal must be public (0.0.0.0, 10/8, 169.254/16, mapped v6 …).
  not_public: 'Must reach a public address, not a private or reserved one',
};

/** Why a platform's URL is not registered, or null: the one outbound URL check, under the one loopback policy. */
export function platformUrlProblem(text: string): string | null {
  const verdict = checkOutboundUrl(text, loopbackPolicy());
  return verdict.ok ? null : PLATFORM_URL_WORDS[verdict.problem];
}

const platformUrl = (what: string) =>
  z
    .string()
    .trim()
    .min(1)
    .max(MAX_URL)
    .superRefine((value, ctx) => {
      const problem = platformUrlProblem(value);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    })
    .describe(`The platform's ${what}: an https URL (loopback http on the emulators only)`);

const text255 = z.string().trim().min(1).max(255);

/** What a registration holds besides its (issuer, client_id) pair, which names it: the fields an edit may change. */
const platformSettings = {
  deployment_ids: z
    .array(text255)
    .min(1)
    .max(MAX_DEPLOYMENTS)
    .refine((ids) => new Set(ids).size === ids.length, { message: 'Deployment ids must be distinct' })
    .describe(`1 to ${MAX_DEPLOYMENTS} distinct deployment ids`),
  auth_login_url: platformUrl('OIDC authorization endpoint'),
  auth_token_url: platformUrl('OAuth token endpoint (AGS, NRPS)'),
  jwks_url: platformUrl('JWKS'),
  name: z.string().trim().min(1).max(100).optional().describe('A label, 1 to 100 characters (default: the issuer)'),
  instructors_as_admins: z
    .boolean()
    .optional()
    .describe('An Instructor launch makes a Client Admin (default false: Instructors launch as Students)'),
};

export const RegisterPlatformBody = z
  .strictObject({
    issuer: platformUrl('issuer (iss)'),
    client_id: text255.describe('The OAuth client id the platform gave the tool'),
    ...platformSettings,
  })
  .meta({ id: 'RegisterLtiPlatform' });
export type RegisterPlatformInput = z.infer<typeof RegisterPlatformBody>;

/** The fields an edit may change; issuer and client_id name the registration (another pair is another registration). */
export const EDITABLE_PLATFORM_FIELDS = [
  'deployment_ids',
  'auth_login_url',
  'auth_token_url',
  'jwks_url',
  'name',
  'instructors_as_admins',
] as const;

export const UpdatePlatformBody = z
  .strictObject({
    ...platformSettings,
    deployment_ids: platformSettings.deployment_ids.optional(),
    auth_login_url: platformSettings.auth_login_url.optional(),
    auth_token_url: platformSettings.auth_token_url.optional(),
    jwks_url: platformSettings.jwks_url.optional(),
  })
  .refine((body) => Object.keys(body).length > 0, { message: 'Send at least one field to change' })
  .meta({ id: 'UpdateLtiPlatform' });
export type UpdatePlatformInput = z.infer<typeof UpdatePlatformBody>;

export const ToolUrls = z
  .object({
    login_url: z.string().describe('OIDC login initiation URL (the platform’s "Initiate login URL")'),
    launch_url: z.string().describe('Redirect / target link URI (the launch)'),
    jwks_url: z.string().describe('The tool’s public keys'),
    deep_linking_url: z.string().describe('Deep-linking request URL (the launch URL too)'),
  })
  .meta({ id: 'LtiToolUrls' });

export const LtiPlatform = z
  .object({
    id: z.string(),
    issuer: z.string(),
    client_id: z.string().describe('The platform’s OAuth client id for the tool'),
    deployment_ids: z.array(z.string()),
    auth_login_url: z.string(),
    auth_token_url: z.string(),
    jwks_url: z.string(),
    name: z.string(),
    instructors_as_admins: z.boolean(),
    created_at: z.string().describe('ISO 8601 UTC'),
    updated_at: z.string().describe('ISO 8601 UTC'),
    tool: ToolUrls,
  })
  .meta({ id: 'LtiPlatform' });
export type LtiPlatform = z.infer<typeof LtiPlatform>;

export const LtiPlatformList = z.object({ data: z.array(LtiPlatform) }).meta({ id: 'LtiPlatformList' });

export const PlatformsParams = z.strictObject({ clientId: ClientId });
export const PlatformParams = z.strictObject({
  clientId: ClientId,
  platformId: z.string().min(1).max(MAX_ID_LENGTH).describe('A platform registration id'),
});

const field = (max: number) => z.string().min(1).max(max);

/** The OIDC third-party login (query on GET, form on POST): unknown parameters are ignored, as platforms add their own. */
export const LoginParams = z
  .object({
    iss: field(MAX_URL).describe('The platform’s issuer'),
    login_hint: field(4096),
    target_link_uri: field(MAX_URL),
    lti_message_hint: field(4096).optional(),
    client_id: field(255)
      .optional()
      .describe('The platform’s client id for the tool (needed when an issuer registered several)'),
    lti_deployment_id: field(255).optional(),
    registration: field(64)
      .optional()
      .describe(
        'Which registration this login is for: part of the login URL a registration reply gives (tool.login_url), so no other organization registering the same issuer can make the login ambiguous',
      ),
  })
  .meta({ id: 'LtiLogin' });
export type LoginInput = z.infer<typeof LoginParams>;

export const LaunchBody = z
  .object({
    id_token: z
      .string()
      .min(1)
      .max(MAX_ID_TOKEN_LENGTH)
      .describe(`The platform’s signed id_token (at most ${MAX_ID_TOKEN_LENGTH} characters)`),
    state: field(128).describe('The state the login sent'),
  })
  .meta({ id: 'LtiLaunch' });
export type LaunchInput = z.infer<typeof LaunchBody>;

export const DeepLinkParams = z.strictObject({
  sessionId: z.string().min(1).max(128).describe('The deep-linking session the launch opened'),
});

export const DeepLinkTests = z
  .object({
    data: z.array(
      z.object({ id: z.string(), name: z.string(), description: z.string().nullable(), question_count: z.number() }),
    ),
  })
  .meta({ id: 'LtiDeepLinkTests' });

export const DeepLinkBody = z.strictObject({ test_id: TestId }).meta({ id: 'LtiDeepLinkChoice' });

export const DeepLinkReply = z
  .object({
    return_url: z.string().describe('Where the page form-posts the JWT (the platform’s deep_link_return_url)'),
    jwt: z.string().describe('The signed LtiDeepLinkingResponse, posted as the form field JWT'),
  })
  .meta({ id: 'LtiDeepLinkResponse' });

export const Jwks = z.object({ keys: z.array(z.record(z.string(), z.unknown())) }).meta({ id: 'Jwks' });
