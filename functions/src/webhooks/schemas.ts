import { z } from 'zod';
import { EVENT_TYPES } from '../outbox';
import { ClientId, DEFAULT_PAGE_LIMIT, MAX_ID_LENGTH, MAX_PAGE_LIMIT, pagedQuery, Pagination } from '../shared';

// Request and reply shapes of an organization's webhook endpoints and their deliveries.

/** Endpoints one organization may register: enough for its systems, never a fan-out amplifier. */
export const MAX_WEBHOOKS = 20;
export const MAX_URL_LENGTH = 2_000;

const WebhookId = z.string().min(1).max(MAX_ID_LENGTH).describe('A webhook endpoint id');
const DeliveryIdParam = z.string().min(1).max(400).describe('A delivery id (`<event id>~<target key>`)');

export const WebhooksParams = z.strictObject({ clientId: ClientId });
export const WebhookParams = z.strictObject({ clientId: ClientId, webhookId: WebhookId });
export const DeliveryParams = z.strictObject({ clientId: ClientId, webhookId: WebhookId, deliveryId: DeliveryIdParam });

export const WebhookEventType = z
  .enum(EVENT_TYPES)
  .describe('attempt.submitted, attempt.graded (its essays all graded), attempt.regraded, test.published');

export const CreateWebhookBody = z
  .strictObject({
    url: z
      .string()
      .trim()
      .min(1)
      .max(MAX_URL_LENGTH)
      .describe('https, on a public address (loopback and http only on the emulators); checked again at each delivery'),
    events: z
      .array(WebhookEventType)
      .min(1)
      .max(EVENT_TYPES.length)
      .refine((events) => new Set(events).size === events.length, 'Each event once')
      .describe('The event types sent to it, each once'),
    description: z.string().trim().max(200).optional().describe('For people: what this endpoint is for'),
  })
  .meta({ id: 'CreateWebhook' });
export type CreateWebhookInput = z.infer<typeof CreateWebhookBody>;

const webhookFields = {
  id: z.string(),
  client_id: z.string(),
  url: z.string(),
  events: z.array(WebhookEventType),
  description: z.string().nullable(),
  active: z.boolean().describe('false once the receiver answered 410 Gone: nothing more is sent to it'),
  disabled_reason: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
};

export const Webhook = z.object(webhookFields).meta({ id: 'Webhook' });
export type Webhook = z.infer<typeof Webhook>;

export const WebhookWithSecret = z
  .object({
    ...webhookFields,
    secret: z
      .string()
      .describe(
        'whsec_ + base64 of 32 random bytes: shown only in this reply (creation, rotation); verify signatures with it',
      ),
  })
  .meta({ id: 'WebhookWithSecret' });
export type WebhookWithSecret = z.infer<typeof WebhookWithSecret>;

export const WebhookList = z.object({ data: z.array(Webhook) }).meta({ id: 'WebhookList' });

export const DeliveriesQuery = pagedQuery({
  page_size: z.coerce
    .number()
    .int()
    .min(1)
    .max(MAX_PAGE_LIMIT)
    .optional()
    .describe(
      `The same as limit (${DEFAULT_PAGE_LIMIT} by default, at most ${MAX_PAGE_LIMIT}); when sent it is the page size, whatever limit says`,
    ),
});

export const Delivery = z
  .object({
    id: z.string(),
    event_id: z.string(),
    event_type: WebhookEventType,
    message_id: z.string().describe('The webhook-id header: the same on every try and resend'),
    status: z.enum(['pending', 'delivered', 'failed']),
    tries: z.number().int(),
    next_try_at: z.string().nullable(),
    last_code: z
      .number()
      .int()
      .nullable()
      .describe('The receiver’s last HTTP status; null for a timeout or a refused connection'),
    last_error: z.string().nullable(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: 'WebhookDelivery' });
export type Delivery = z.infer<typeof Delivery>;

export const DeliveryPage = z
  .object({ data: z.array(Delivery), pagination: Pagination })
  .meta({ id: 'WebhookDeliveryPage' });
