import { ApiError, OfflineError } from './api';

// The invitation calls with no typed client yet: the public preview and redeem (no Authorization:
// the token in the body, never in a URL), and the bulk issues with the admin's ID token.
// TODO once web/src/api/schema.d.ts is regenerated from the OpenAPI document: the typed client.

export interface IssuedInvitation {
  uid: string;
  name: string | null;
  email: string;
  link: string;
  expires_at: string;
}
export interface InvitationBatch {
  client_id: string;
  rows: IssuedInvitation[];
  skipped: Array<{ uid: string; reason: string }>;
}

export async function postJson<T>(path: string, body: unknown, idToken?: string): Promise<T> {
  let response: Response;
  try {
    response = await fetch(path, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(idToken ? { authorization: `Bearer ${idToken}` } : {}) },
      body: JSON.stringify(body),
    });
  } catch {
    throw new OfflineError();
  }
  const reply = (await response.json().catch(() => ({}))) as Record<string, unknown>;
  if (response.ok) return reply as T;
  throw new ApiError(
    response.status,
    (reply.error as string | undefined) ?? 'SERVER_ERROR',
    (reply.message as string | undefined) ?? `The service answered ${response.status}`,
    (reply.details as ApiError['details'] | undefined) ?? [],
    reply,
  );
}

/** Why a link cannot be used, as the service names it (details[0].reason), or undefined. */
export const refusalOf = (err: unknown): string | undefined =>
  err instanceof ApiError ? (err.details[0] as { reason?: string } | undefined)?.reason : undefined;
