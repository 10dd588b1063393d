import { adminDb } from '../../support/admin';
import { createClientDoc } from '../../support/fixtures';
import type { FuzzSeedGroup } from './types';

// Seeds for an organization's webhook endpoints and their deliveries. The
// fuzzer works in an organization made for it alone; its endpoint and
// delivery are written directly, so no receiver is ever called.

interface Prepared {
  client: string;
  webhook: string;
  delivery: string;
}

export const seeds: FuzzSeedGroup = {
  async prepare(): Promise<Prepared> {
    const client = (await createClientDoc()).id;
    const webhook = 'fuzz-hook';
    const delivery = `fuzz-event~webhook-${webhook}`;
    const now = new Date().toISOString();
    await adminDb.doc(`clients/${client}/webhooks/${webhook}`).set({
      id: webhook,
      client_id: client,
      url: 'https://hooks.example.com/fuzz',
      events: ['test.published'],
      description: null,
      // Inactive: a resend the fuzzer makes never reaches anyone.
      active: false,
      disabled_reason: 'fuzz',
      secrets: [{ secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', expires_at: null }],
      created_at: now,
      updated_at: now,
      created_by: 'fuzz',
    });
    await adminDb.doc(`clients/${client}/deliveries/${delivery}`).set({
      id: delivery,
      client_id: client,
      event_id: 'fuzz-event',
      event_type: 'test.published',
      message_id: 'msg_fuzz',
      target: { kind: 'webhook', webhook_id: webhook },
      payload: '{}',
      status: 'failed',
      tries: 1,
      round_tries: 1,
      next_try_at: null,
      last_code: 500,
      last_error: 'HTTP 500',
      history: [],
      created_at: now,
      updated_at: now,
    });
    return { client, webhook, delivery };
  },
  seeds: [
    { operation: 'get /api/clients/{clientId}/webhooks', request: (w, p: Prepared) => ({ token: w.superAdmin.token, params: { clientId: p.client } }) },
    {
      operation: 'post /api/clients/{clientId}/webhooks',
      request: (w, p: Prepared) => ({
        token: w.superAdmin.token,
        params: { clientId: p.client },
        body: { url: 'https://hooks.example.com/in', events: ['attempt.submitted', 'test.published'], description: 'fuzz' },
      }),
    },
    {
      operation: 'delete /api/clients/{clientId}/webhooks/{webhookId}',
      request: (w, p: Prepared) => ({ token: w.superAdmin.token, params: { clientId: p.client, webhookId: 'not-there' } }),
    },
    {
      operation: 'post /api/clients/{clientId}/webhooks/{webhookId}/rotate-secret',
      request: (w, p: Prepared) => ({ token: w.superAdmin.token, params: { clientId: p.client, webhookId: p.webhook } }),
    },
    {
      operation: 'get /api/clients/{clientId}/webhooks/{webhookId}/deliveries',
      request: (w, p: Prepared) => ({
        token: w.superAdmin.token,
        params: { clientId: p.client, webhookId: p.webhook },
        query: { page: '1', page_size: '10' },
      }),
    },
    {
      operation: 'post /api/clients/{clientId}/webhooks/{webhookId}/deliveries/{deliveryId}/resend',
      request: (w, p: Prepared) => ({
        token: w.superAdmin.token,
        params: { clientId: p.client, webhookId: p.webhook, deliveryId: p.delivery },
      }),
    },
  ],
};
