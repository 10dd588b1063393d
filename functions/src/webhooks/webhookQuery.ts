import type { QuerySpec } from '../shared';

// Pure: the shape of an endpoint's delivery list, which the index test checks against firestore.indexes.json.

/** One endpoint's deliveries, newest first. */
export const deliveriesOfWebhookSpec = (webhookId: string): QuerySpec => ({
  collectionId: 'deliveries',
  equals: { 'target.webhook_id': webhookId },
  orderBy: [{ field: 'created_at', direction: 'desc' }],
});
