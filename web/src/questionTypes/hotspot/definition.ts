import type { Schemas } from '../../api';
import type { AreaDraft, ImageDraft, KeyDraft, QuestionTypeDefinition } from '../module';
import { anyPartsOf } from '../parts';

// Areas of an image. The answer is a JSON array text with one string per pick: an area's number from
// 1 (choosing areas) or a point "x,y" in the image's own pixels (placing points); "" when none. The
// stored key is the correct areas' numbers, as an answer choosing them would be written.

type Area = Schemas['HotspotArea'];

const MAX_SIDE = 10_000;
const MAX_AREAS = 30;
/** The most points a taker may place (the service's limit). */
export const MAX_POINTS = 20;
// The service's MEDIA_SOURCE: a stored media file, or an http(s) URL.
const IMAGE_SOURCE = /^(\/api\/media\/[A-Za-z0-9._-]{1,300}|https?:\/\/[^\s"'<>]{1,1900})$/;

/** An area the author has not filled in yet. */
export const EMPTY_AREA: AreaDraft = { shape: 'rect', coords: '', correct: false, label: '' };

/** The picks an answer holds: area numbers or "x,y" points; none when it cannot be read. */
export const picksOf = (answer: string): string[] => anyPartsOf(answer).filter((pick) => pick.trim() !== '');

/** The answer holding these picks; "" (unanswered) when none. */
export const answerOfPicks = (picks: readonly string[]): string => (picks.length === 0 ? '' : JSON.stringify(picks));

/** A point in the image's own pixels as an answer writes it: whole pixels. */
export const pointText = (x: number, y: number): string => `${Math.round(x)},${Math.round(y)}`;

/** A point of an answer, or undefined when the pick is none (the service's readPoint). */
export function pointOf(pick: string): { x: number; y: number } | undefined {
  const match = /^\s*(-?\d+(?:\.\d+)?)\s*,\s*(-?\d+(?:\.\d+)?)\s*$/.exec(pick);
  return match ? { x: Number(match[1]), y: Number(match[2]) } : undefined;
}

/**
 * A position on the image as drawn (`at` pixels from its edge, `drawn` pixels long) in the image's
 * own pixels (`natural` long), within the image.
 */
export const imagePixel = (at: number, drawn: number, natural: number): number =>
  Math.min(natural, Math.max(0, Math.round((at / drawn) * natural)));

/** The smallest box holding an area, in the image's pixels: where its button stands over the image. */
export function boxOf(area: Pick<Area, 'shape' | 'coords'>): {
  left: number;
  top: number;
  width: number;
  height: number;
} {
  const c = area.coords;
  if (area.shape === 'circle') return { left: c[0] - c[2], top: c[1] - c[2], width: 2 * c[2], height: 2 * c[2] };
  const xs = c.filter((_, i) => i % 2 === 0);
  const ys = c.filter((_, i) => i % 2 === 1);
  const left = Math.min(...xs);
  const top = Math.min(...ys);
  return { left, top, width: Math.max(...xs) - left, height: Math.max(...ys) - top };
}

/** An area's name: its label, or "Area n". */
export const areaName = (area: { label?: string } | undefined, n: number): string => area?.label || `Area ${n}`;

/** A pick as the review says it: "Area 2", or "point (120, 45)". */
export function shownPick(pick: string): string {
  const point = pointOf(pick);
  return point ? `point (${point.x}, ${point.y})` : `Area ${pick.trim()}`;
}

/** Coordinates as written: numbers separated by commas (or spaces). */
export const coordsOf = (text: string): number[] =>
  text
    .split(/[\s,]+/)
    .filter(Boolean)
    .map(Number);

/** Why the coordinates do not make the shape, or null (the service's shapeProblem). */
export function shapeProblem(shape: AreaDraft['shape'], coords: number[]): string | null {
  const n = coords.length;
  if (coords.some((c) => !Number.isFinite(c))) return 'its coordinates are numbers, separated by commas';
  if (shape === 'circle') return n !== 3 ? 'a circle takes x, y, r' : coords[2] > 0 ? null : 'a circle’s r is above 0';
  if (shape === 'rect') return n !== 4 ? 'a rect takes x1, y1, x2, y2' : null;
  return n < 6 || n % 2 !== 0 ? 'a poly takes 3 points or more: x1, y1, x2, y2, x3, y3…' : null;
}

const wholeIn = (text: string, least: number, most: number): boolean =>
  Number.isInteger(Number(text)) && text.trim() !== '' && Number(text) >= least && Number(text) <= most;

/** Why the image's address or size is not one the service takes, or null. */
export function imageProblem(draft: Pick<KeyDraft, 'image'>): string | null {
  if (!IMAGE_SOURCE.test(draft.image.src.trim())) return 'The image is a /api/media/… address or an http(s) URL.';
  if (!wholeIn(draft.image.width, 1, MAX_SIDE) || !wholeIn(draft.image.height, 1, MAX_SIDE))
    return `The image’s width and height are whole pixels, 1 to ${MAX_SIDE}.`;
  return null;
}

function areasProblem(draft: KeyDraft): string | null {
  if (draft.areas.length === 0) return 'Add at least one area.';
  if (draft.areas.length > MAX_AREAS) return `Write at most ${MAX_AREAS} areas.`;
  for (const [i, area] of draft.areas.entries()) {
    const problem = shapeProblem(area.shape, coordsOf(area.coords));
    if (problem) return `Area ${i + 1}: ${problem}.`;
  }
  const correct = draft.areas.filter((a) => a.correct).length;
  if (correct === 0) return 'Tick at least one correct area.';
  const most = draft.max_points.trim();
  if (draft.select === 'points' && most !== '' && !wholeIn(most, Math.max(1, correct), MAX_POINTS))
    return `The most points a taker may place is a whole number from ${correct} (the correct areas) to ${MAX_POINTS}.`;
  return null;
}

/** The image as the API's body holds it. */
export const imageOf = (image: ImageDraft): Schemas['HotspotImage'] => ({
  src: image.src.trim(),
  width: Number(image.width),
  height: Number(image.height),
  ...(image.alt.trim() ? { alt: image.alt.trim() } : {}),
});

/** An area as the API's body holds it. */
const areaOf = (area: AreaDraft): Area => ({
  shape: area.shape,
  coords: coordsOf(area.coords),
  correct: area.correct,
  ...(area.label.trim() ? { label: area.label.trim() } : {}),
});

/** Coordinates as the form writes them. */
export const coordsText = (coords: readonly number[]): string => coords.join(', ');

/** A stored area as the form edits it. */
const areaDraftOf = (area: Area): AreaDraft => ({
  shape: area.shape,
  coords: coordsText(area.coords),
  correct: area.correct,
  label: area.label ?? '',
});

/** Areas of an image to choose among, or to place points in. */
export const hotspot: QuestionTypeDefinition = {
  type: 'hotspot',
  label: 'Hotspot',
  hasOptions: false,
  maxOptions: 0,
  textInAnswer: false,
  fixedOptions: null,
  legendNote: null,
  takesAnswer: true,
  markedByPerson: false,
  chosenOptions: () => [],
  shownAnswer: (answer) => picksOf(answer).map(shownPick).join(', '),
  keyDraftOf: (q) => ({
    image: {
      src: q.image?.src ?? '',
      width: q.image ? String(q.image.width) : '',
      height: q.image ? String(q.image.height) : '',
      alt: q.image?.alt ?? '',
    },
    areas: (q.areas ?? []).map(areaDraftOf),
    select: q.select ?? 'areas',
    max_points: q.max_points == null ? '' : String(q.max_points),
  }),
  keyLabel: 'Image and areas',
  keyFieldLabels: {
    image: 'Image',
    'image.src': 'Image address',
    'image.width': 'Image width',
    'image.height': 'Image height',
    'image.alt': 'Image description',
    areas: 'Areas',
    select: 'The taker',
    max_points: 'Most points',
  },
  keyProblem: (draft) => imageProblem(draft) ?? areasProblem(draft),
  bodyOf: (draft) => ({
    question_type: 'hotspot',
    image: imageOf(draft.image),
    areas: draft.areas.map(areaOf),
    select: draft.select,
    ...(draft.select === 'points'
      ? { max_points: draft.max_points.trim() === '' ? null : Number(draft.max_points) }
      : {}),
  }),
  regradeKeyHint: 'The correct areas’ numbers, as a JSON array: ["1", "3"]',
  toleranceInKey: false,
  // A row has no columns for an image and its areas.
  csvExample: null,
};
