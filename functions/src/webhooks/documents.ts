import type { EventType } from '../outbox';

/** A signing secret; one rotated out keeps signing until `expires_at`. */
export interface WebhookSecret {
  secret: string;
  /** ISO; null for the current secret. */
  expires_at: string | null;
}

/** clients/{c}/webhooks/{webhookId}: one receiver of the organization's events. */
export interface StoredWebhook {
  id: string;
  client_id: string;
  url: string;
  events: EventType[];
  description: string | null;
  /** False once the receiver answered 410 (disabled_reason says so): nothing more is sent to it. */
  active: boolean;
  disabled_reason: string | null;
  /** The current secret first; a rotated-out one after it while it still signs (24 h). */
  secrets: WebhookSecret[];
  created_at: string;
  updated_at: string;
  created_by: string;
}
