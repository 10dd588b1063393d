import { Refusal, type QuestionDraft } from '../model';
import { element, elements, textOf, type XmlElement } from '../xml';

// Pure: a Moodle drag-and-drop markers question's drop zones as a hotspot's areas, in the background
// image's pixels: a circle "x,y;r", a rectangle "x,y;w,h" (its top left corner and size), a polygon
// "x1,y1;x2,y2;…". Each zone expects one of the markers; a hotspot placing points has no markers,
// so a point in any zone counts (said in a warning by the reader).

type Area = NonNullable<QuestionDraft['areas']>[number];

const numbers = (text: string): number[] =>
  text
    .split(/[;,]/)
    .map((n) => n.trim())
    .filter((n) => n !== '')
    .map(Number);

/** One drop zone as an area, or a refusal naming what is wrong with it. */
function areaOf(drop: XmlElement, label: string | undefined): Area {
  const shape = textOf(element(drop, 'shape') ?? drop).trim();
  const coords = textOf(element(drop, 'coords') ?? drop).trim();
  const n = numbers(coords);
  if (n.some((v) => !Number.isFinite(v)))
    throw new Refusal(`The drop zone "${coords}" has coordinates that are not numbers`);
  const named = label ? { label } : {};
  if (shape === 'circle' && n.length === 3) return { shape: 'circle', coords: n, correct: true, ...named };
  if (shape === 'rectangle' && n.length === 4)
    return { shape: 'rect', coords: [n[0], n[1], n[0] + n[2], n[1] + n[3]], correct: true, ...named };
  if (shape === 'polygon' && n.length >= 6 && n.length % 2 === 0)
    return { shape: 'poly', coords: n, correct: true, ...named };
  throw new Refusal(
    `The drop zone "${shape}" at "${coords}" is not a circle, rectangle or polygon as Moodle writes them`,
  );
}

/** The markers by number, with how many of each a taker may place (0: as many as wanted). */
function markersOf(question: XmlElement): Map<string, { text: string; copies: number }> {
  return new Map(
    elements(question, 'drag').map((drag) => [
      textOf(element(drag, 'no') ?? drag).trim(),
      {
        text: textOf(element(drag, 'text') ?? drag).trim(),
        copies: Number(textOf(element(drag, 'noofdrags') ?? drag).trim() || 1),
      },
    ]),
  );
}

/** Every drop zone as a correct area labelled by the marker it expects, and the points a taker may place. */
export function dropZones(question: XmlElement): { areas: Area[]; maxPoints: number; markers: string[] } {
  const markers = markersOf(question);
  const drops = elements(question, 'drop');
  if (drops.length === 0) throw new Refusal('It has no drop zones');
  const areas = drops.map((drop) => areaOf(drop, markers.get(textOf(element(drop, 'choice') ?? drop).trim())?.text));
  return { areas, maxPoints: Math.min(20, drops.length), markers: [...markers.values()].map((m) => m.text) };
}
