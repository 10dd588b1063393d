import {
  element,
  elements,
  EXPORT_TAGS,
  imageDimensions,
  Refusal,
  textElement,
  textOf,
  xmlElement as xml,
  type ExportQuestion,
  type MoodleReader,
  type MoodleWriter,
  type MoodleXmlMapping,
  type QuestionDraft,
  type XmlElement,
} from '../../interchange';

// A hotspot in Moodle XML: Moodle's drag-and-drop markers (ddmarker), its background the image.
// A Moodle drag-and-drop markers question's drop zones as a hotspot's areas, in the background
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
function dropZones(question: XmlElement): { areas: Area[]; maxPoints: number; markers: string[] } {
  const markers = markersOf(question);
  const drops = elements(question, 'drop');
  if (drops.length === 0) throw new Refusal('It has no drop zones');
  const areas = drops.map((drop) => areaOf(drop, markers.get(textOf(element(drop, 'choice') ?? drop).trim())?.text));
  return { areas, maxPoints: Math.min(20, drops.length), markers: [...markers.values()].map((m) => m.text) };
}

/** Markers dropped on an image: a hotspot placing points, its drop zones the correct areas. */
const ddmarker: MoodleReader = (r) => {
  const background = r.backgroundImage();
  if (!background) throw new Refusal('It has no background image');
  const size = imageDimensions(background.bytes);
  if (!size) throw new Refusal('Its background image is not an image whose size can be read');
  const { areas, maxPoints, markers } = dropZones(r.question);
  if (!r.tags.anyMarker)
    r.warnings.push(
      `Its markers (${markers.join(', ')}) are not carried: a point placed in any drop zone counts, whichever marker Moodle expects there`,
    );
  if (r.child('showmisplaced')) r.notCarried.push('highlighting misplaced markers');
  r.noteCombinedFeedback();
  return r.assemble({
    question_type: 'hotspot',
    image: { src: background.src, ...size },
    areas,
    select: 'points',
    max_points: maxPoints,
  });
};

// ---- Written: a hotspot as Moodle's drag-and-drop markers

/** A correct area's zone as Moodle writes it: circle "x,y;r", rectangle "x,y;w,h", polygon "x1,y1;x2,y2;…". */
function zoneOf(area: Area): { shape: string; coords: string } {
  const [x1, y1, x2, y2] = area.coords;
  if (area.shape === 'circle') return { shape: 'circle', coords: `${x1},${y1};${area.coords[2]}` };
  if (area.shape === 'rect') return { shape: 'rectangle', coords: `${x1},${y1};${x2 - x1},${y2 - y1}` };
  const pairs: string[] = [];
  for (let i = 0; i + 1 < area.coords.length; i += 2) pairs.push(`${area.coords[i]},${area.coords[i + 1]}`);
  return { shape: 'polygon', coords: pairs.join(';') };
}

/**
 * A hotspot's body as ddmarker: the image its background file (`file`: the element carrying it),
 * each correct area a drop zone expecting the marker of its label (one marker per label, as many
 * copies as its zones; an area without a label is marked "Point n"); what ddmarker cannot say noted.
 */
function ddmarkerBody(q: ExportQuestion, file: string): { body: string; notes: string[] } {
  const areas = q.areas ?? [];
  const correct = areas.map((a, i) => ({ area: a, n: i + 1 })).filter((a) => a.area.correct);
  const labelOf = (a: { area: Area; n: number }) => a.area.label ?? `Point ${a.n}`;
  const markers = [...new Set(correct.map(labelOf))];
  const drags = markers
    .map((text, i) =>
      xml(
        'drag',
        {},
        textElement('no', String(i + 1)) +
          textElement('text', text) +
          textElement('noofdrags', String(correct.filter((a) => labelOf(a) === text).length)),
      ),
    )
    .join('');
  const drops = correct
    .map((a, i) => {
      const zone = zoneOf(a.area);
      return xml(
        'drop',
        {},
        textElement('no', String(i + 1)) +
          textElement('shape', zone.shape) +
          textElement('coords', zone.coords) +
          textElement('choice', String(markers.indexOf(labelOf(a)) + 1)),
      );
    })
    .join('');
  const notes: string[] = [];
  if (q.select === 'areas')
    notes.push('choosing among shown areas is written as placing markers on the image (ddmarker shows no areas)');
  if (correct.length < areas.length)
    notes.push(
      `${areas.length - correct.length} area(s) that are not correct are not carried: ddmarker has only drop zones`,
    );
  if (correct.some((a) => a.area.label === undefined))
    notes.push('areas without a label are marked "Point n" (a marker needs a text)');
  if (q.image?.alt) notes.push("the image's alt text is not carried: a ddmarker background has none");
  if (q.select === 'points' && q.max_points && q.max_points !== Math.min(20, correct.length))
    notes.push(`ddmarker places one marker per drop zone, not ${q.max_points} points`);
  return { body: file + drags + drops, notes };
}

/** A hotspot as ddmarker, its image the background file it carries; one whose image is no stored file cannot be. */
const write: MoodleWriter = (w) => {
  const background = w.backgroundFile(w.q.image?.src ?? '');
  if (!background)
    return { cannot: 'a hotspot question whose image is not a stored media file (ddmarker carries its background)' };
  // Its markers are not carried: the tag says a point in any drop zone counts, as it does here.
  return { type: 'ddmarker', ...ddmarkerBody(w.q, background), tags: [EXPORT_TAGS.anyMarker] };
};

export const hotspotMoodleXml: MoodleXmlMapping = { reads: { ddmarker }, write };
