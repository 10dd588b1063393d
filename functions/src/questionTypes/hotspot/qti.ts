import { qtiReading, qtiWriting, type ExportQuestion, type QtiMapping } from '../../interchange';
import { hotspot } from './module';

// A hotspot in QTI: areas to choose are a hotspot interaction, points to place a select point
// interaction scored by its area mapping, on the question's image. A position object (an object
// placed on its stage's image) is read as points placed.

const { Refusal, attr, collapse, correctValues, descendants, imageSource, kid, kids, numberOf, qtiName, textOf } =
  qtiReading;
type InteractionPart = qtiReading.InteractionPart;
type ItemReading = qtiReading.ItemReading;
type QuestionDraft = qtiReading.QuestionDraft;
type XmlElement = qtiReading.XmlElement;
type ExportMedia = qtiWriting.ExportMedia;
type ItemParts = qtiWriting.ItemParts;
const {
  correctResponse,
  element,
  float,
  formatNumber,
  mappedScore,
  mappingElement,
  mediaHref,
  mediaIdsIn,
  setScore,
  variable,
} = qtiWriting;

/** On an area map entry: our export's label of the area (QTI's entries have none). */
const AREA_LABEL_ATTRIBUTE = 'data-label';

// ---- Reading

type Area = NonNullable<QuestionDraft['areas']>[number];

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
    draft: { question_type: hotspot.name, image, areas, select: 'areas' },
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
    question_type: hotspot.name,
    image,
    areas,
    select: 'points',
    max_points: Math.max(correct, maxChoices > 0 ? maxChoices : correct),
  };
  return { draft, marks: item.marks ?? 1, fallbackText: 'Place your answer on the image.' };
}

// ---- Writing

/** A hotspot's image as the interaction shows it: a package file referred to relatively, else its URL. */
function hotspotImage(q: ExportQuestion, media: ExportMedia, notes: string[]): string {
  const image = q.image!;
  const [id] = mediaIdsIn(image.src);
  const file = id === undefined ? undefined : media.get(id);
  if (id !== undefined && !file) notes.push(`media not found, left as a link: ${id}`);
  return element('img', {
    src: file ? mediaHref(id!, file.name) : image.src,
    alt: image.alt ?? '',
    width: String(image.width),
    height: String(image.height),
  });
}

/** An area's QTI shape and coordinates (ours are QTI's own: circle, rect, poly). */
const shapeOf = (area: NonNullable<ExportQuestion['areas']>[number]) => ({
  shape: area.shape,
  coords: area.coords.map(formatNumber).join(','),
});

/**
 * A hotspot: choosing areas is a hotspot interaction, each right area earning its share and each
 * wrong one as much less (bounded at 0, the bank's score); placing points is a select point
 * interaction scored by its area mapping (each correct area once, map_response_point), its other
 * areas mapped to 0 so that they come back.
 */
function hotspotItem(q: ExportQuestion, media: ExportMedia, notes: string[]): ItemParts {
  const areas = q.areas ?? [];
  const ids = areas.map((_, i) => `A${i + 1}`);
  const correct = ids.filter((_, i) => areas[i].correct);
  const share = correct.length > 0 ? q.marks / correct.length : 0;
  const image = hotspotImage(q, media, notes);
  if (q.select === 'points') {
    const mapping = element(
      'qti-area-mapping',
      { 'default-value': '0', 'lower-bound': '0', 'upper-bound': formatNumber(q.marks) },
      areas
        .map((a) =>
          element('qti-area-map-entry', {
            ...shapeOf(a),
            'mapped-value': formatNumber(a.correct ? share : 0),
            [AREA_LABEL_ATTRIBUTE]: a.label || undefined,
          }),
        )
        .join(''),
    );
    return {
      declarations: element(
        'qti-response-declaration',
        { identifier: 'RESPONSE', cardinality: 'multiple', 'base-type': 'point' },
        mapping,
      ),
      interaction: element(
        'qti-select-point-interaction',
        { 'response-identifier': 'RESPONSE', 'max-choices': String(q.max_points ?? correct.length) },
        image,
      ),
      processing: element(
        'qti-response-condition',
        {},
        element('qti-response-if', {}, element('qti-is-null', {}, variable('RESPONSE')) + setScore(float(0))) +
          element('qti-response-else', {}, setScore(element('qti-map-response-point', { identifier: 'RESPONSE' }))),
      ),
    };
  }
  const choices = areas
    .map((a, i) =>
      element('qti-hotspot-choice', { identifier: ids[i], ...shapeOf(a), 'hotspot-label': a.label || undefined }),
    )
    .join('');
  return {
    declarations: element(
      'qti-response-declaration',
      { identifier: 'RESPONSE', cardinality: 'multiple', 'base-type': 'identifier' },
      correctResponse(correct) +
        mappingElement(
          q,
          ids.map((id) => [id, correct.includes(id) ? share : -share]),
        ),
    ),
    interaction: element(
      'qti-hotspot-interaction',
      { 'response-identifier': 'RESPONSE', 'max-choices': '0' },
      image + choices,
    ),
    processing: mappedScore(),
  };
}

export const hotspotQti: QtiMapping = {
  type: hotspot.name,
  readers: {
    hotspotInteraction: { read: hotspotInteraction },
    selectPointInteraction: { read: selectPointInteraction },
    positionObjectInteraction: { read: positionObjectInteraction },
  },
  write: hotspotItem,
};
