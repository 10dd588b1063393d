import type { Client } from 'openapi-fetch';
import { unwrap, type Api, type Schemas } from '../../api/client';

/**
 * The integration calls the pages make (webhook endpoints, their deliveries, LTI platforms), in one place.
 *
 * The interfaces and `IntegrationPaths` below mirror, field for field, the API's schemas of these
 * endpoints (the contract's "Integrations" shapes) in the form openapi-typescript generates. They stand
 * in for `Schemas[…]` and `paths` of api/schema.d.ts until that file is generated from a service that
 * serves these routes; then the pages keep their names and only this file changes.
 */

export const WEBHOOK_EVENTS = ['attempt.submitted', 'attempt.graded', 'attempt.regraded', 'test.published'] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

/** A webhook endpoint as listed: never its secret. */
export interface Webhook {
  id: string;
  client_id: string;
  url: string;
  events: WebhookEvent[];
  description: string | null;
  active: boolean;
  /** Why the service stopped delivering to it (a 410 from the receiver), null while active. */
  disabled_reason: string | null;
  created_at: string;
  updated_at: string;
}

export interface WebhookList {
  data: Webhook[];
}

/** The create and rotate replies: the only two that carry the secret. */
export interface WebhookWithSecret extends Webhook {
  /** `whsec_` + base64 of 32 random bytes. */
  secret: string;
}

export interface CreateWebhook {
  url: string;
  events: WebhookEvent[];
  description?: string;
}

export type DeliveryStatus = 'pending' | 'delivered' | 'failed';

export interface WebhookDelivery {
  id: string;
  event_id: string;
  event_type: WebhookEvent;
  /** The `webhook-id` header: the same on every try and on a resend. */
  message_id: string;
  status: DeliveryStatus;
  tries: number;
  next_try_at: string | null;
  last_code: number | null;
  last_error: string | null;
  created_at: string;
  updated_at: string;
}

export interface WebhookDeliveryPage {
  data: WebhookDelivery[];
  pagination: Schemas['Pagination'];
}

/** The tool's own URLs, pasted into the platform's registration of the tool. */
export interface LtiToolUrls {
  login_url: string;
  launch_url: string;
  jwks_url: string;
  /** The launch URL too: a deep-linking request is launched there as a resource link is. */
  deep_linking_url: string;
}

export interface LtiPlatform {
  id: string;
  issuer: string;
  /** The OAuth client id the platform gave the tool. */
  client_id: string;
  deployment_ids: string[];
  auth_login_url: string;
  auth_token_url: string;
  jwks_url: string;
  /** The issuer when none was given. */
  name: string;
  instructors_as_admins: boolean;
  created_at: string;
  updated_at: string;
  tool: LtiToolUrls;
}

export interface LtiPlatformList {
  data: LtiPlatform[];
}

export interface RegisterLtiPlatform {
  issuer: string;
  client_id: string;
  deployment_ids: string[];
  auth_login_url: string;
  auth_token_url: string;
  jwks_url: string;
  name?: string;
  instructors_as_admins?: boolean;
}

// ---- the paths, as openapi-typescript writes them (only what the calls below use).

type Json<T> = { content: { 'application/json': T } };
type Empty = { content?: never };
type Errors = { 400: Json<Schemas['Error']>; 403: Json<Schemas['Error']>; 404: Json<Schemas['Error']> };
type Op<Path, Query, Responses> = {
  parameters: { query?: Query; header?: never; path: Path; cookie?: never };
  requestBody?: never;
  responses: Responses & Errors;
};
type OpWithBody<Path, Body, Responses> = Omit<Op<Path, never, Responses>, 'requestBody'> & {
  requestBody: Json<Body>;
};
type OrgPath = { clientId: string };
type WebhookPath = OrgPath & { webhookId: string };

export interface IntegrationPaths {
  '/api/clients/{clientId}/webhooks': {
    get: Op<OrgPath, never, { 200: Json<WebhookList> }>;
    post: OpWithBody<OrgPath, CreateWebhook, { 201: Json<WebhookWithSecret>; 409: Json<Schemas['Error']> }>;
  };
  '/api/clients/{clientId}/webhooks/{webhookId}': {
    delete: Op<WebhookPath, never, { 204: Empty }>;
  };
  '/api/clients/{clientId}/webhooks/{webhookId}/rotate-secret': {
    post: Op<WebhookPath, never, { 200: Json<WebhookWithSecret> }>;
  };
  '/api/clients/{clientId}/webhooks/{webhookId}/deliveries': {
    get: Op<WebhookPath, { page?: number }, { 200: Json<WebhookDeliveryPage> }>;
  };
  '/api/clients/{clientId}/webhooks/{webhookId}/deliveries/{deliveryId}/resend': {
    post: Op<WebhookPath & { deliveryId: string }, never, { 202: Json<WebhookDelivery> }>;
  };
  '/api/clients/{clientId}/lti/platforms': {
    get: Op<OrgPath, never, { 200: Json<LtiPlatformList> }>;
    post: OpWithBody<OrgPath, RegisterLtiPlatform, { 201: Json<LtiPlatform>; 409: Json<Schemas['Error']> }>;
  };
  '/api/clients/{clientId}/lti/platforms/{platformId}': {
    delete: Op<OrgPath & { platformId: string }, never, { 204: Empty }>;
  };
}

/** The same client (its token and clock middleware), seen with the integration paths. */
const typed = (api: Api) => api as unknown as Client<IntegrationPaths>;

// ---- webhooks

export const listWebhooks = async (api: Api, clientId: string) =>
  (await unwrap(typed(api).GET('/api/clients/{clientId}/webhooks', { params: { path: { clientId } } }))).data;

export const createWebhook = (api: Api, clientId: string, body: CreateWebhook) =>
  unwrap(typed(api).POST('/api/clients/{clientId}/webhooks', { params: { path: { clientId } }, body }));

export const deleteWebhook = (api: Api, clientId: string, webhookId: string) =>
  unwrap(
    typed(api).DELETE('/api/clients/{clientId}/webhooks/{webhookId}', { params: { path: { clientId, webhookId } } }),
  );

export const rotateWebhookSecret = (api: Api, clientId: string, webhookId: string) =>
  unwrap(
    typed(api).POST('/api/clients/{clientId}/webhooks/{webhookId}/rotate-secret', {
      params: { path: { clientId, webhookId } },
    }),
  );

/** Newest first, a page of the service's default size. */
export const listDeliveries = (api: Api, clientId: string, webhookId: string, page: number) =>
  unwrap(
    typed(api).GET('/api/clients/{clientId}/webhooks/{webhookId}/deliveries', {
      params: { path: { clientId, webhookId }, query: { page } },
    }),
  );

/** Pending again at once, with the same message id (a receiver deduplicating on webhook-id sees a retry). */
export const resendDelivery = (api: Api, clientId: string, webhookId: string, deliveryId: string) =>
  unwrap(
    typed(api).POST('/api/clients/{clientId}/webhooks/{webhookId}/deliveries/{deliveryId}/resend', {
      params: { path: { clientId, webhookId, deliveryId } },
    }),
  );

// ---- LTI platforms

export const listLtiPlatforms = async (api: Api, clientId: string) =>
  (await unwrap(typed(api).GET('/api/clients/{clientId}/lti/platforms', { params: { path: { clientId } } }))).data;

export const registerLtiPlatform = (api: Api, clientId: string, body: RegisterLtiPlatform) =>
  unwrap(typed(api).POST('/api/clients/{clientId}/lti/platforms', { params: { path: { clientId } }, body }));

export const deleteLtiPlatform = (api: Api, clientId: string, platformId: string) =>
  unwrap(
    typed(api).DELETE('/api/clients/{clientId}/lti/platforms/{platformId}', {
      params: { path: { clientId, platformId } },
    }),
  );

export const EVENT_LABELS: Record<WebhookEvent, string> = {
  'attempt.submitted': 'An attempt is submitted',
  'attempt.graded': 'An attempt’s essays are all graded',
  'attempt.regraded': 'Attempts are regraded',
  'test.published': 'A test is published',
};
