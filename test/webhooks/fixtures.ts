import { randomUUID } from 'node:crypto';
import type { StoredWebhook } from '../../functions/src/webhooks/documents';
import { newSecret } from '../../functions/src/webhooks/signing';
import { adminDb } from '../support/admin';

/**
 * An active endpoint written straight to Firestore, as the API would store it: for tests of
 * deliveries that need a receiver on a loopback address, which the API refuses outside them.
 */
export async function storedWebhook(
  clientId: string,
  url: string,
  { events = ['attempt.submitted'], secret = newSecret() }: { events?: StoredWebhook['events']; secret?: string } = {},
): Promise<StoredWebhook> {
  const now = new Date().toISOString();
  const webhook: StoredWebhook = {
    id: randomUUID(),
    client_id: clientId,
    url,
    events,
    description: null,
    active: true,
    disabled_reason: null,
    secrets: [{ secret, expires_at: null }],
    created_at: now,
    updated_at: now,
    created_by: 'fixture',
  };
  await adminDb.doc(`clients/${clientId}/webhooks/${webhook.id}`).set(webhook);
  return webhook;
}
