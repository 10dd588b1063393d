import { type Api, type Schemas, unwrap } from '../../api';

/**
 * The integration calls the pages make (webhook endpoints, their deliveries, LTI platforms), in one place,
 * each one request through the typed client with the API's own shapes (schema.d.ts).
 */

export const WEBHOOK_EVENTS = ['attempt.submitted', 'attempt.graded', 'attempt.regraded', 'test.published'] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

export type Webhook = Schemas['Webhook'];
export type WebhookWithSecret = Schemas['WebhookWithSecret'];
export type CreateWebhook = Schemas['CreateWebhook'];
export type WebhookDelivery = Schemas['WebhookDelivery'];
export type DeliveryStatus = WebhookDelivery['status'];
export type LtiPlatform = Schemas['LtiPlatform'];
export type LtiToolUrls = Schemas['LtiToolUrls'];
export type RegisterLtiPlatform = Schemas['RegisterLtiPlatform'];
export type UpdateLtiPlatform = Schemas['UpdateLtiPlatform'];

// ---- webhooks

export const listWebhooks = async (api: Api, clientId: string) =>
  (await unwrap(api.GET('/api/clients/{clientId}/webhooks', { params: { path: { clientId } } }))).data;

export const createWebhook = (api: Api, clientId: string, body: CreateWebhook) =>
  unwrap(api.POST('/api/clients/{clientId}/webhooks', { params: { path: { clientId } }, body }));

export const deleteWebhook = (api: Api, clientId: string, webhookId: string) =>
  unwrap(api.DELETE('/api/clients/{clientId}/webhooks/{webhookId}', { params: { path: { clientId, webhookId } } }));

export const rotateWebhookSecret = (api: Api, clientId: string, webhookId: string) =>
  unwrap(
    api.POST('/api/clients/{clientId}/webhooks/{webhookId}/rotate-secret', {
      params: { path: { clientId, webhookId } },
    }),
  );

/** Newest first, a page of the service's default size. */
export const listDeliveries = (api: Api, clientId: string, webhookId: string, page: number) =>
  unwrap(
    api.GET('/api/clients/{clientId}/webhooks/{webhookId}/deliveries', {
      params: { path: { clientId, webhookId }, query: { page } },
    }),
  );

/** Pending again at once, with the same message id (a receiver deduplicating on webhook-id sees a retry). */
export const resendDelivery = (api: Api, clientId: string, webhookId: string, deliveryId: string) =>
  unwrap(
    api.POST('/api/clients/{clientId}/webhooks/{webhookId}/deliveries/{deliveryId}/resend', {
      params: { path: { clientId, webhookId, deliveryId } },
    }),
  );

// ---- LTI platforms

export const listLtiPlatforms = async (api: Api, clientId: string) =>
  (await unwrap(api.GET('/api/clients/{clientId}/lti/platforms', { params: { path: { clientId } } }))).data;

export const registerLtiPlatform = (api: Api, clientId: string, body: RegisterLtiPlatform) =>
  unwrap(api.POST('/api/clients/{clientId}/lti/platforms', { params: { path: { clientId } }, body }));

export const updateLtiPlatform = (api: Api, clientId: string, platformId: string, body: UpdateLtiPlatform) =>
  unwrap(
    api.PATCH('/api/clients/{clientId}/lti/platforms/{platformId}', {
      params: { path: { clientId, platformId } },
      body,
    }),
  );

export const deleteLtiPlatform = (api: Api, clientId: string, platformId: string) =>
  unwrap(
    api.DELETE('/api/clients/{clientId}/lti/platforms/{platformId}', {
      params: { path: { clientId, platformId } },
    }),
  );

export const EVENT_LABELS: Record<WebhookEvent, string> = {
  'attempt.submitted': 'An attempt is submitted',
  'attempt.graded': 'An attempt’s essays are all graded',
  'attempt.regraded': 'Attempts are regraded',
  'test.published': 'A test is published',
};
