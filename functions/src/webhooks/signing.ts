import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import type { WebhookSecret } from './documents';

// Standard Webhooks signing, by its own library: receivers verify with the same code.

/** `whsec_` + base64 of 32 random bytes. */
export const newSecret = (): string => `whsec_${randomBytes(32).toString('base64')}`;

/** A rotated-out secret signs on for this long, so receivers can switch without missing a message. */
export const ROTATION_OVERLAP_MS = 24 * 3_600_000;

/** The secrets that sign now: the current one and any rotated out less than 24 h ago. */
export const signingSecrets = (secrets: readonly WebhookSecret[], nowMs: number): WebhookSecret[] =>
  secrets.filter((s) => s.expires_at === null || Date.parse(s.expires_at) > nowMs);

/** The three headers of one try: `webhook-signature` has one `v1,…` per signing secret, space-separated. */
export function signedHeaders(
  messageId: string,
  body: string,
  secrets: readonly WebhookSecret[],
  nowMs: number,
): Record<string, string> {
  const at = new Date(Math.floor(nowMs / 1000) * 1000);
  return {
    'webhook-id': messageId,
    'webhook-timestamp': String(Math.floor(nowMs / 1000)),
    'webhook-signature': signingSecrets(secrets, nowMs)
      .map((s) => new Webhook(s.secret).sign(messageId, at, body))
      .join(' '),
  };
}
