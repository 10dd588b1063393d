import { qtiWriting, type ExportQuestion, type QtiMapping } from '../../interchange';
import { hotspot } from './module';

// A hotspot in QTI: areas to choose are a hotspot interaction, points to place a select point
// interaction scored by its area mapping, on the question's image.

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
type ExportMedia = qtiWriting.ExportMedia;
type ItemParts = qtiWriting.ItemParts;

// ---- Writing

/** On an area map entry: our export's label of the area (QTI's entries have none). */
export const AREA_LABEL_ATTRIBUTE = 'data-label';

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

export const hotspotQti: QtiMapping = { type: hotspot.name, write: hotspotItem };
