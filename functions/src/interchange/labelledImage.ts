import { type GapDraft, type QuestionDraft, Refusal } from './model';
import { escapeAttr, escapeText } from './xmlText';

// Pure: labels to be placed on an image (Moodle's drag and drop onto image, QTI's graphic gap match)
// as a gap_fill: the image shown in the text, then one drag gap per drop zone listed under it, the
// labels its chips. A hotspot would keep where each zone is but not which label belongs there (its
// areas are right or wrong, never "this label here"); a gap fill keeps that key, and scores as both
// sources do (each zone placed right is its share of the marks). The zones are named by their own
// label, else by where they stand in the image's pixels.

/** One place a label is dropped: how the list names it, and the label that belongs there. */
export interface DropZone {
  name: string;
  answer: string;
}

/** The image the labels are placed on: its source (a media placeholder or a URL), its size when known. */
export interface PlacedImage {
  src: string;
  alt?: string;
  width?: number;
  height?: number;
}

/** The most drop zones a gap fill holds, and chips (questionTypes/gapFill's limits). */
const MAX_ZONES = 50;
const MAX_LABELS = 30;

const imageHtml = (image: PlacedImage): string =>
  `<img src="${escapeAttr(image.src)}" alt="${escapeAttr(image.alt ?? '')}"${
    image.width && image.height ? ` width="${image.width}" height="${image.height}"` : ''
  } />`;

/** A zone named by where it stands: its top left corner (or centre) in the image's pixels. */
export const zoneAt = (n: number, x: number, y: number): string => `Box ${n} at x ${x}, y ${y}`;

/**
 * The text (`textHtml` then the image and the list of zones, each `[[n]]`) and gaps of the labels'
 * gap fill; `labels` are the chips, every zone's answer among them.
 */
export function labelledImageDraft(
  textHtml: string,
  image: PlacedImage,
  zones: readonly DropZone[],
  labels: readonly string[],
  reusable: boolean,
): Pick<QuestionDraft, 'question_text' | 'gaps' | 'drag_options' | 'drag_reusable'> {
  if (zones.length === 0) throw new Refusal('It has no drop zones');
  if (zones.length > MAX_ZONES) throw new Refusal(`It has ${zones.length} drop zones; a question holds ${MAX_ZONES}`);
  const chips = [...new Set(labels)];
  if (chips.length > MAX_LABELS) throw new Refusal(`It has ${chips.length} labels; a question holds ${MAX_LABELS}`);
  const stray = zones.find((z) => !chips.includes(z.answer));
  if (stray) throw new Refusal(`The drop zone "${stray.name}" expects "${stray.answer}", which is not a label`);
  const list = zones.map((z, i) => `<li>${escapeText(z.name)}: [[${i + 1}]]</li>`).join('');
  const gaps = zones.map((z): GapDraft => ({ kind: 'drag', answers: [{ answer: z.answer, credit: 100 }] }));
  return {
    question_text: `${textHtml}<p>${imageHtml(image)}</p><ol>${list}</ol>`,
    gaps,
    drag_options: chips,
    ...(reusable ? { drag_reusable: true } : {}),
  };
}

/** The warning every such question carries: what a taker sees instead of boxes on the image. */
export const PLACED_ON_IMAGE =
  'Its drop zones are listed under the image, each a gap taking one of the labels (the image itself shows no boxes): the key, which label goes where, is kept';
