import { randomUUID } from 'node:crypto';

// Pure: media ids, and where a question refers to its media.

/** `<clientId>.<uuid>`: the organization is known from the id alone, as for attempts. */
export const newMediaId = (clientId: string): string => `${clientId}.${randomUUID()}`;

/** The organization a media id names, or undefined when it names none. */
export function organizationOfMediaId(mediaId: string): string | undefined {
  const at = mediaId.lastIndexOf('.');
  if (at <= 0 || at === mediaId.length - 1) return undefined;
  return mediaId.slice(0, at);
}

/** The URL a question's HTML uses for a media file. */
export const mediaUrl = (mediaId: string): string => `/api/media/${mediaId}`;

/** The parts of a question a taker sees while answering it: its text, its options and its image (never its title). */
const TAKING_FIELDS = ['question_text', 'options', 'image'];

function strings(value: unknown, out: string[]): string[] {
  if (typeof value === 'string') out.push(value);
  else if (Array.isArray(value)) value.forEach((v) => strings(v, out));
  else if (value && typeof value === 'object') Object.values(value).forEach((v) => strings(v, out));
  return out;
}

/**
 * Whether `question` (a frozen question) shows the media: while the attempt is
 * being taken, in what the taker sees of it; in a released review, anywhere in
 * it (its feedback, its options' feedback too) but its title. The URL must end
 * there, so one id that begins another is not mistaken for it.
 */
export function questionShowsMedia(question: object, mediaId: string, scope: 'question' | 'review'): boolean {
  const record = question as Record<string, unknown>;
  // The title is the bank's name for the question: no reply to a taker carries it, not even a review.
  const { title: _title, ...shown } = record;
  const texts = scope === 'review' ? strings(shown, []) : TAKING_FIELDS.flatMap((f) => strings(record[f], []));
  const url = mediaUrl(mediaId);
  return texts.some((text) => {
    for (let at = text.indexOf(url); at >= 0; at = text.indexOf(url, at + 1)) {
      if (!/[A-Za-z0-9._~%-]/.test(text.charAt(at + url.length))) return true;
    }
    return false;
  });
}
