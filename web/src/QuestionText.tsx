import { createContext, useContext, useEffect, useMemo, useRef } from 'react';
import { MEDIA_ATTRIBUTE, MEDIA_LINK_ATTRIBUTE, sanitizeQuestionHtml } from './questionHtml';

/** Fetches a media file (`GET /api/media/{id}`) with the reader's credentials. */
export type MediaLoader = (mediaId: string) => Promise<Blob>;

/**
 * How the question texts below fetch their images and audio: a taker's page fetches them for
 * its attempt (with its attempt token when it has one), an admin page with the admin's token.
 */
export const MediaLoaderContext = createContext<MediaLoader | null>(null);

export type TextFormat = 'plain' | 'html';

/**
 * Question text (or feedback) as the bank holds it: plain text stays text (React escapes it);
 * HTML goes through the one sanitizer, then each media file is fetched with the reader's
 * credentials and shown from a blob URL, revoked when the text leaves the page.
 */
export function QuestionText({
  text,
  format,
  block = false,
}: {
  text: string;
  format?: TextFormat | null;
  /** Inside a <legend>, a cell or a sentence the text stays a <span>; as a block of its own, a <p> (plain) or a <div>. */
  block?: boolean;
}) {
  if (format !== 'html') return block ? <p className="qtext">{text}</p> : <span className="qtext">{text}</span>;
  return <HtmlText html={text} block={block} />;
}

function HtmlText({ html, block }: { html: string; block: boolean }) {
  const clean = useMemo(() => sanitizeQuestionHtml(html), [html]);
  const load = useContext(MediaLoaderContext);
  const ref = useRef<HTMLElement>(null);
  useEffect(() => {
    const root = ref.current;
    return root && load ? loadMediaIn(root, load) : undefined;
  }, [clean, load]);
  const Tag = block ? 'div' : 'span';
  return (
    <Tag
      ref={ref as React.RefObject<HTMLDivElement & HTMLSpanElement>}
      className="qtext qtext-html"
      dangerouslySetInnerHTML={{ __html: clean }}
    />
  );
}

/**
 * Fetches the media files sanitized HTML under `root` names, with the reader's credentials, and
 * shows them from blob URLs; returns what revokes them when the text leaves the page.
 */
export function loadMediaIn(root: HTMLElement, load: MediaLoader): (() => void) | undefined {
  const elements = Array.from(root.querySelectorAll<HTMLElement>(`[${MEDIA_ATTRIBUTE}], [${MEDIA_LINK_ATTRIBUTE}]`));
  if (elements.length === 0) return undefined;
  let live = true;
  const urls: string[] = [];
  const players: HTMLAudioElement[] = [];
  const byId = new Map<string, HTMLElement[]>();
  for (const el of elements) {
    const id = el.getAttribute(MEDIA_ATTRIBUTE) ?? el.getAttribute(MEDIA_LINK_ATTRIBUTE)!;
    byId.set(id, [...(byId.get(id) ?? []), el]);
  }
  for (const [id, targets] of byId) {
    load(id).then(
      (blob) => {
        if (!live) return;
        const url = URL.createObjectURL(blob);
        urls.push(url);
        for (const el of targets) {
          if (el instanceof HTMLAnchorElement) {
            players.push(...linkedMedia(el, url, blob.type));
            continue;
          }
          el.setAttribute('src', url);
          // A <source> is read by its <audio> when that loads, not when the source changes.
          if (el instanceof HTMLSourceElement && el.parentElement instanceof HTMLMediaElement) el.parentElement.load();
        }
      },
      // Offline, or no longer readable: the image's alt text stands in for it, a link's text for its file.
      () => undefined,
    );
  }
  return () => {
    live = false;
    for (const player of players) player.remove();
    for (const url of urls) URL.revokeObjectURL(url);
  };
}

/**
 * A link to a media file, once fetched: a download of it (never a page that leads out of the
 * exam), and for a sound a player before it, the link staying as the way to the file where the
 * player cannot play it. Returns the player it added.
 */
function linkedMedia(link: HTMLAnchorElement, url: string, type: string): HTMLAudioElement[] {
  link.href = url;
  link.download = '';
  if (!type.startsWith('audio/')) return [];
  const player = document.createElement('audio');
  player.controls = true;
  player.src = url;
  player.setAttribute('aria-label', link.textContent?.trim() || 'Audio');
  link.before(player);
  return [player];
}

/**
 * The bank's presentation fields, for a reply whose type does not name them (the analytics'
 * questions do not carry text_format yet): read through this, a page works with replies that
 * have them and with replies that do not.
 */
interface RichFields {
  text_format?: TextFormat | null;
}
export const richFields = (question: object | undefined | null): RichFields => (question ?? {}) as RichFields;
