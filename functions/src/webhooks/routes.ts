import { defineRoute, type RouteDefinition } from '../http';
import { MAX_TRIES } from '../delivery';
import { EVENT_TYPES } from '../outbox';
import {
  CreateWebhookBody,
  Delivery,
  DeliveryPage,
  DeliveryParams,
  DeliveriesQuery,
  MAX_WEBHOOKS,
  WebhookList,
  WebhookParams,
  WebhooksParams,
  WebhookWithSecret,
} from './schemas';
import * as service from './service';

const ADMINS = ['super_admin', 'client_admin'] as const;
const WHO =
  'Super Admin, or the organization’s Client Admin (another organization’s → 403; another organization’s endpoint id under this one → 404).';
const SIGNING =
  'Each delivery is a POST of `{type, timestamp, data}` signed as Standard Webhooks says: headers webhook-id (the same on every try), webhook-timestamp, webhook-signature (`v1,<base64 HMAC-SHA256>`; two, space-separated, for 24 h after a rotation). ' +
  `Tried at once, then after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h (${MAX_TRIES} tries), then failed; a 410 disables the endpoint.`;

export const webhookRoutes: RouteDefinition[] = [
  defineRoute({
    method: 'get',
    path: '/clients/{clientId}/webhooks',
    summary: 'List an organization’s webhook endpoints',
    description: `Every endpoint (at most ${MAX_WEBHOOKS}), oldest first, without secrets. ${WHO}`,
    tag: 'Integrations',
    access: ADMINS,
    sensitive: true,
    params: WebhooksParams,
    success: { status: 200, description: 'The endpoints', schema: WebhookList },
    errors: ['NOT_FOUND'],
    handler: async ({ principal, params }) => ({
      status: 200,
      body: await service.listWebhooks(principal, params.clientId),
    }),
  }),
  defineRoute({
    method: 'post',
    path: '/clients/{clientId}/webhooks',
    summary: 'Register a webhook endpoint',
    description:
      `The URL must be https and reach a public address (a name resolving to a private or reserved one → 400; checked again at every delivery). ` +
      `Events: ${EVENT_TYPES.join(', ')}. At most ${MAX_WEBHOOKS} per organization (409). The reply carries the secret, shown only here and on rotation. ` +
      `Audited as webhook_created. ${SIGNING} ${WHO}`,
    tag: 'Integrations',
    access: ADMINS,
    sensitive: true,
    params: WebhooksParams,
    body: CreateWebhookBody,
    success: { status: 201, description: 'The endpoint with its secret', schema: WebhookWithSecret },
    errors: ['NOT_FOUND', 'CONFLICT'],
    handler: async ({ principal, params, body, call }) => ({
      status: 201,
      body: await service.createWebhook(principal, params.clientId, body, call),
    }),
  }),
  defineRoute({
    method: 'delete',
    path: '/clients/{clientId}/webhooks/{webhookId}',
    summary: 'Delete a webhook endpoint',
    description: `Nothing more is sent to it (a pending delivery ends failed at its next try). Audited as webhook_deleted. ${WHO}`,
    tag: 'Integrations',
    access: ADMINS,
    sensitive: true,
    params: WebhookParams,
    success: { status: 204, description: 'Deleted' },
    errors: ['NOT_FOUND'],
    handler: async ({ principal, params, call }) => {
      await service.deleteWebhook(principal, params.clientId, params.webhookId, call);
      return { status: 204 };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/clients/{clientId}/webhooks/{webhookId}/rotate-secret',
    summary: 'Rotate a webhook endpoint’s secret',
    description: `A new secret, shown only in this reply; the previous one signs beside it for 24 h (two signatures in webhook-signature), so a receiver can switch without missing a delivery. Audited as webhook_secret_rotated. ${WHO}`,
    tag: 'Integrations',
    access: ADMINS,
    sensitive: true,
    params: WebhookParams,
    success: { status: 200, description: 'The endpoint with its new secret', schema: WebhookWithSecret },
    errors: ['NOT_FOUND'],
    handler: async ({ principal, params, call }) => ({
      status: 200,
      body: await service.rotateSecret(principal, params.clientId, params.webhookId, call),
    }),
  }),
  defineRoute({
    method: 'get',
    path: '/clients/{clientId}/webhooks/{webhookId}/deliveries',
    summary: 'List a webhook endpoint’s deliveries',
    description: `Newest first: status, tries, when the next try is due, the last response code and error. ${WHO}`,
    tag: 'Integrations',
    access: ADMINS,
    // A read an admin pages through while watching a receiver: the general limit, not the sensitive one.
    params: WebhookParams,
    query: DeliveriesQuery,
    success: { status: 200, description: 'A page of deliveries', schema: DeliveryPage },
    errors: ['NOT_FOUND'],
    handler: async ({ principal, params, query }) => {
      const { page, cursor, limit, page_size } = query;
      return {
        status: 200,
        body: await service.listDeliveries(principal, params.clientId, params.webhookId, {
          page,
          cursor,
          limit: page_size ?? limit,
        }),
      };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/clients/{clientId}/webhooks/{webhookId}/deliveries/{deliveryId}/resend',
    summary: 'Resend a delivery',
    description: `Pending again and due at once, its retry schedule restarted, with the same webhook-id and body (a receiver that saw it can drop it). Audited as webhook_delivery_resent. ${WHO}`,
    tag: 'Integrations',
    access: ADMINS,
    sensitive: true,
    params: DeliveryParams,
    success: { status: 202, description: 'The delivery, pending', schema: Delivery },
    errors: ['NOT_FOUND'],
    handler: async ({ principal, params, call }) => ({
      status: 202,
      body: await service.resendDelivery(principal, params.clientId, params.webhookId, params.deliveryId, call),
    }),
  }),
];
