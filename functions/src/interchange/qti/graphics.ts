import { type QuestionDraft, Refusal } from '../model';
import { attr, collapse, descendants, kid, kids, numberOf, qtiName, textOf } from './elements';
import { mediaReference } from './html';
import { type InteractionPart, type ItemReading, optionText } from './interactions';
import { type XmlElement } from '../xml';
import { correctValues } from './scoring';
import { labelledImageDraft, type PlacedImage, PLACED_ON_IMAGE, zoneAt } from '../labelledImage';

// Pure: the graphic interactions that map onto a hotspot question: a hotspot interaction (areas of an
// image to choose), a select point interaction (points to place, scored by its area mapping) and a
// position object interaction (an object placed on its stage's image, read as points placed). The
// image is the interaction's <object>, whose width and height are the frame of the coordinates.

type Area = NonNullable<QuestionDraft['areas']>[number];

/** On an area map entry: our export's label of the area (QTI's entries have none). */
export const AREA_LABEL_ATTRIBUTE = 'data-label';

/**
 * The interaction's image (an <object data> or, in QTI 3, an <img src>; a position object's is its
 * stage's): its source (a package file as a media placeholder), its size as given, its alt text.
 */
function imageSource(item: ItemReading, within: XmlElement = item.interaction): PlacedImage & { data: string } {
  const holder = kids(within).find((k) => ['object', 'img'].includes(qtiName(k)));
  const data = holder && (attr(holder, 'data') ?? attr(holder, 'src'));
  if (!holder || !data) throw new Refusal('It has no image (an <object> or <img> to place its areas on)');
  const width = numberOf(attr(holder, 'width'));
  const height = numberOf(attr(holder, 'height'));
  const src = mediaReference(data, 'image', item.ctx);
  if (src === undefined) throw new Refusal(`Its image "${data}" cannot be carried: a lone item file holds no media`);
  const alt = collapse(attr(holder, 'alt') ?? textOf(holder));
  return {
    data,
    src,
    ...(width && height ? { width: Math.round(width), height: Math.round(height) } : {}),
    ...(alt ? { alt: alt.slice(0, 500) } : {}),
  };
}

/** The image as a hotspot's: its width and height are the frame its areas stand in. */
function imageOf(item: ItemReading, within?: XmlElement): NonNullable<QuestionDraft['image']> {
  const { data, width, height, ...image } = imageSource(item, within);
  if (!width || !height)
    throw new Refusal(`Its image "${data}" gives no width and height: its areas have no frame to stand in`);
  return { ...image, width, height };
}

/** An ellipse as the polygon of 16 points on it (our areas are circles, rectangles and polygons). */
function ellipseAsPolygon([x, y, hr, vr]: number[]): number[] {
  return Array.from({ length: 16 }, (_, k) => {
    const angle = (2 * Math.PI * k) / 16;
    return [Math.round(x + hr * Math.cos(angle)), Math.round(y + vr * Math.sin(angle))];
  }).flat();
}

/** A QTI shape and coordinates as an area of ours, or undefined for `default` (the whole image). */
function areaOf(
  shape: string | undefined,
  coords: string | undefined,
  warnings: Set<string>,
): Omit<Area, 'correct'> | undefined {
  const numbers = (coords ?? '').split(',').map((c) => Number(c.trim()));
  if (numbers.some((n) => !Number.isFinite(n))) throw new Refusal(`The coordinates "${coords}" are not numbers`);
  switch (shape) {
    case 'circle':
    case 'rect':
      return { shape, coords: numbers };
    case 'poly': {
      // QTI (as HTML) may repeat the first point at the end.
      const closed = numbers.length >= 8 && numbers[0] === numbers.at(-2) && numbers[1] === numbers.at(-1);
      return { shape: 'poly', coords: closed ? numbers.slice(0, -2) : numbers };
    }
    case 'ellipse':
      warnings.add('An ellipse is carried as a polygon of 16 points on it');
      return { shape: 'poly', coords: ellipseAsPolygon(numbers) };
    case 'default':
      warnings.add('An area covering the whole image (shape default) is not carried');
      return undefined;
    default:
      throw new Refusal(`The shape "${shape}" is not one the bank holds (circle, rect, poly)`);
  }
}

/** A hotspot interaction: its choices are the areas, the key the correct ones (or those its mapping credits). */
function hotspotInteraction(item: ItemReading): InteractionPart {
  const image = imageOf(item);
  const choices = kids(item.interaction).filter((k) => qtiName(k) === 'hotspotChoice');
  const given = correctValues(item.declaration);
  const keys = given.length > 0 ? given : (item.mapping?.entries ?? []).filter((e) => e.value > 0).map((e) => e.key);
  if (keys.length === 0) throw new Refusal('The item has no correct response');
  const areas = choices.flatMap((choice): Area[] => {
    const area = areaOf(attr(choice, 'shape'), attr(choice, 'coords'), item.warnings);
    const label = collapse(attr(choice, 'hotspotLabel') ?? textOf(choice));
    return area
      ? [
          {
            ...area,
            correct: keys.includes(attr(choice, 'identifier') ?? ''),
            ...(label ? { label: label.slice(0, 500) } : {}),
          },
        ]
      : [];
  });
  if (item.useMapping && !isRightLessWrong(item, keys))
    item.warnings.add("The mapping's scores were not carried: the bank scores right areas chosen less wrong ones");
  return {
    draft: { question_type: 'hotspot', image, areas, select: 'areas' },
    marks: item.marks ?? 1,
    fallbackText: 'Choose on the image.',
  };
}

/** Whether the mapping scores as the bank does (our export's): each right area its share, each wrong one as much less, at least 0. */
function isRightLessWrong(item: ItemReading, keys: readonly string[]): boolean {
  const mapping = item.mapping;
  if (!mapping || keys.length === 0 || mapping.lowerBound !== 0 || mapping.defaultValue !== 0) return false;
  const share = (item.marks ?? 1) / keys.length;
  const close = (a: number, b: number) => Math.abs(a - b) < 1e-6 * Math.max(1, Math.abs(b));
  return mapping.entries.every((e) => close(e.value, keys.includes(e.key) ? share : -share));
}

/** A select point interaction: the areas its area mapping credits (or a small circle round each correct point). */
const selectPointInteraction = (item: ItemReading): InteractionPart => pointsOn(item, imageOf(item));

/**
 * A position object interaction: an object to place on its stage's image, scored as points placed
 * (its area mapping, or circles round the correct points): points placed on the stage's image here.
 */
function positionObjectInteraction(item: ItemReading): InteractionPart {
  const stage = [...descendants(item.root)].find(
    (d) => qtiName(d) === 'positionObjectStage' && kids(d).includes(item.interaction),
  );
  if (!stage) throw new Refusal('Its position object stage (the image to place on) is missing');
  const placed = kids(item.interaction).find((k) => ['object', 'img'].includes(qtiName(k)));
  const what = placed && collapse(attr(placed, 'alt') ?? (textOf(placed) || (attr(placed, 'data') ?? '')));
  item.warnings.add(
    `The object to place${what ? ` (${what})` : ''} is not carried: the taker places points on the image instead`,
  );
  return pointsOn(item, imageOf(item, stage));
}

/** Points to place on an image: the areas the area mapping credits (or a small circle round each correct point). */
function pointsOn(item: ItemReading, image: NonNullable<QuestionDraft['image']>): InteractionPart {
  const mapping = item.declaration && kid(item.declaration, 'areaMapping');
  const entries = mapping ? kids(mapping).filter((k) => qtiName(k) === 'areaMapEntry') : [];
  let areas: Area[] = entries.flatMap((entry): Area[] => {
    const area = areaOf(attr(entry, 'shape'), attr(entry, 'coords'), item.warnings);
    const label = collapse(entry.attrs[AREA_LABEL_ATTRIBUTE] ?? '');
    return area
      ? [
          {
            ...area,
            correct: (numberOf(attr(entry, 'mappedValue')) ?? 0) > 0,
            ...(label ? { label: label.slice(0, 500) } : {}),
          },
        ]
      : [];
  });
  if (areas.length === 0) {
    const points = correctValues(item.declaration).map((p) => p.trim().split(/\s+/).map(Number));
    if (points.length === 0 || points.some((p) => p.length !== 2 || p.some((n) => !Number.isFinite(n))))
      throw new Refusal('The item has neither an area mapping nor correct points');
    item.warnings.add('Its correct points are carried as circles of 5 px round them (it has no area mapping)');
    areas = points.map(([x, y]) => ({ shape: 'circle', coords: [x, y, 5], correct: true }));
  }
  const correct = areas.filter((a) => a.correct).length;
  const maxChoices = numberOf(attr(item.interaction, 'maxChoices')) ?? 1;
  const draft: Partial<QuestionDraft> = {
    question_type: 'hotspot',
    image,
    areas,
    select: 'points',
    max_points: Math.max(correct, maxChoices > 0 ? maxChoices : correct),
  };
  return { draft, marks: item.marks ?? 1, fallbackText: 'Place your answer on the image.' };
}

/**
 * A graphic gap match: labels (gap images, or gap texts as QTI 3 allows) placed on the image's
 * associable hotspots, keyed label → hotspot; a gap fill as Moodle's drag and drop onto image is
 * (labelledImage.ts). One that places its labels in text gaps (`gap`) or has no associable hotspot is
 * malformed: reported so, never read as something else.
 */
function graphicGapMatchInteraction(item: ItemReading): InteractionPart {
  const inside = [...descendants(item.interaction)].map(qtiName);
  const hotspots = kids(item.interaction, 'associableHotspot');
  if (inside.includes('gap') || hotspots.length === 0)
    throw new Refusal(
      `A malformed graphic gap match: ${inside.includes('gap') ? 'it places its labels in text gaps (qti-gap), which belong to a gap match, and ' : ''}it has no associable hotspots on its image to place them on, as QTI requires`,
    );
  const labelled = kids(item.interaction).filter((k) => ['gapImg', 'gapText'].includes(qtiName(k)));
  if (labelled.length === 0) throw new Refusal('It has no labels to place (gap images)');
  const labels = new Map(labelled.map((l, i) => [attr(l, 'identifier') ?? '', labelOf(l, i, item.warnings)]));
  const image = imageSource(item);
  const key = new Map(
    correctValues(item.declaration).map((pair) => {
      const [label, hotspot] = pair.trim().split(/\s+/);
      return [hotspot, label] as const;
    }),
  );
  if (key.size === 0) throw new Refusal('The item has no correct response');
  const zones = hotspots.flatMap((h, i) => {
    const label = labels.get(key.get(attr(h, 'identifier') ?? '') ?? '');
    if (label === undefined) return [];
    const [x = 0, y = 0] = (attr(h, 'coords') ?? '').split(',').map((c) => Math.round(Number(c.trim())));
    const own = collapse(attr(h, 'hotspotLabel') ?? '');
    return [{ name: own ? `Box ${i + 1} (${own})` : zoneAt(i + 1, x, y), answer: label }];
  });
  const unkeyed = hotspots.length - zones.length;
  if (unkeyed > 0)
    item.warnings.add(
      `${unkeyed} hotspot${unkeyed === 1 ? '' : 's'} without a label in the key ${unkeyed === 1 ? 'is' : 'are'} left out`,
    );
  const reusable = labelled.some((l) => (numberOf(attr(l, 'matchMax')) ?? 1) !== 1);
  const { question_text: placed, ...draft } = labelledImageDraft('', image, zones, [...labels.values()], reusable);
  item.warnings.add(PLACED_ON_IMAGE);
  if (item.useMapping)
    item.warnings.add("The mapping's scores were not carried: each label placed right earns its share");
  return {
    draft: { question_type: 'gap_fill', ...draft },
    marks: item.marks ?? 1,
    textAfter: placed,
    fallbackText: 'Place each label in its box on the image.',
  };
}

/** A label as text: a gap text's own, a gap image's `objectLabel` or its image's alt text (warned). */
function labelOf(label: XmlElement, index: number, warnings: Set<string>): string {
  if (qtiName(label) === 'gapText') return optionText(label, index, warnings);
  const image = [...descendants(label)].find((d) => ['img', 'object'].includes(qtiName(d)));
  const text = collapse(attr(label, 'objectLabel') ?? attr(image ?? label, 'alt') ?? textOf(image ?? label));
  if (text === '')
    throw new Refusal(`Label ${index + 1} is an image without alt text: a label here is a text`, 'unsupported');
  warnings.add(`The image labels are carried as their text (labels here are texts)`);
  return text;
}

/** The interactions of this file, each by its reader. */
export const GRAPHIC_INTERACTIONS = new Map<string, (item: ItemReading) => InteractionPart>([
  ['hotspotInteraction', hotspotInteraction],
  ['selectPointInteraction', selectPointInteraction],
  ['positionObjectInteraction', positionObjectInteraction],
  ['graphicGapMatchInteraction', graphicGapMatchInteraction],
]);
