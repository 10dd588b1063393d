import { type ReachPolicy, sendOnce } from '../outbound';

// One signed POST to a receiver, through the one outbound sender (its bounds:
// 15 s for the status to arrive, no redirect followed): only the receiver's
// status counts, so it is taken when it arrives and the connection closed,
// no byte of the body read (a 2xx whose body trickles is delivered at once).
// Worded for the delivery's history.

export interface PostResult {
  /** The receiver's status, null when there was none. */
  code: number | null;
  error: string | null;
  ms: number;
}

/** Why a status is a failed try: a redirect (never followed) or anything but 2xx. */
function statusError(code: number, location: string | null): string | null {
  if (code >= 300 && code < 400) return `Redirect to ${(location ?? '(none)').slice(0, 200)} not followed`;
  return code < 200 || code >= 300 ? `HTTP ${code}` : null;
}

export async function postOnce(
  urlText: string,
  headers: Record<string, string>,
  body: string,
  policy: ReachPolicy,
  limits: { timeoutMs?: number } = {},
): Promise<PostResult> {
  const reply = await sendOnce(
    urlText,
    {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json', 'user-agent': 'exam-webhooks/1' },
      body,
    },
    { policy, read: 'status', timeoutMs: limits.timeoutMs },
  );
  if (reply.status !== null)
    return { code: reply.status, error: statusError(reply.status, reply.headers.get('location')), ms: reply.ms };
  const error =
    reply.failure === 'refused'
      ? `Refused: ${reply.detail}`
      : reply.failure === 'timeout'
        ? reply.detail
        : `Connection failed: ${reply.detail}`.slice(0, 300);
  return { code: null, error, ms: reply.ms };
}
