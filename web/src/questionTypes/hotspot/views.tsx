import { lazy, Suspense } from 'react';
import { CheckedField } from '../../FormProblems';
import type { AreaDraft, AuthorKeyProps, ImageDraft, KeyDraft, QuestionTypeModule, ReviewProps } from '../module';
import { PartsReview } from '../partsReview';
import { KeyedReview } from '../review';
import { areaName, EMPTY_AREA, hotspot, imageOf, imageProblem, picksOf } from './definition';

// Only an author drawing areas needs it: a chunk of its own, out of the taker's first load.
const AreaDrawing = lazy(() => import('./areaDrawing').then((m) => ({ default: m.AreaDrawing })));

const SHAPES: Array<[AreaDraft['shape'], string, string]> = [
  ['rect', 'Rectangle', 'x1, y1, x2, y2'],
  ['circle', 'Circle', 'x, y, r'],
  ['poly', 'Polygon', 'x1, y1, x2, y2, x3, y3…'],
];

const IMAGE_FIELDS: Array<[keyof ImageDraft, string, string | undefined]> = [
  ['src', 'text', 'An uploaded file’s /api/media/… address, or an http(s) URL'],
  ['width', 'number', 'In pixels: the frame of the areas’ coordinates'],
  ['height', 'number', 'In pixels'],
  ['alt', 'text', 'What the image shows, for a screen reader'],
];

/** One area's row: its shape, its coordinates as a comma list, whether it is correct, its label. */
function AreaFields({
  n,
  area,
  update,
  remove,
}: {
  n: number;
  area: AreaDraft;
  update: (change: Partial<AreaDraft>) => void;
  remove: () => void;
}) {
  const coordsHint = SHAPES.find(([shape]) => shape === area.shape)?.[2];
  return (
    <div className="row">
      <CheckedField label={`Area ${n} shape`} problems={undefined}>
        <select value={area.shape} onChange={(e) => update({ shape: e.target.value as AreaDraft['shape'] })}>
          {SHAPES.map(([shape, label]) => (
            <option key={shape} value={shape}>
              {label}
            </option>
          ))}
        </select>
      </CheckedField>
      <CheckedField label={`Area ${n} coordinates`} problems={undefined} hint={coordsHint}>
        <input value={area.coords} onChange={(e) => update({ coords: e.target.value })} />
      </CheckedField>
      <CheckedField label={`Area ${n} label`} problems={undefined} hint="Its name for a screen reader and the review">
        <input value={area.label} onChange={(e) => update({ label: e.target.value })} />
      </CheckedField>
      <label className="option">
        <input type="checkbox" checked={area.correct} onChange={(e) => update({ correct: e.target.checked })} /> Area{' '}
        {n} is correct
      </label>
      <button type="button" className="secondary" onClick={remove}>
        Remove area {n}
      </button>
    </div>
  );
}

/**
 * The image (its address and size), what the taker does, and the areas: drawn on the image once
 * its address and size are read, and as rows of coordinates in the image's pixels (the way by
 * keyboard, and for exact numbers), the two in step.
 */
function AuthorKey({ draft, set, problemsAt }: AuthorKeyProps) {
  const areas = draft.areas;
  const update = (i: number, change: Partial<AreaDraft>) =>
    set(
      'areas',
      areas.map((a, j) => (j === i ? { ...a, ...change } : a)),
    );
  const problems = problemsAt('correct_answer') ?? problemsAt('areas');
  return (
    <>
      <fieldset>
        <legend>Image</legend>
        {problemsAt('image') ? (
          <p className="field-error" role="alert">
            {problemsAt('image')?.join(' ')}
          </p>
        ) : null}
        <div className="row">
          {IMAGE_FIELDS.map(([field, type, hint]) => (
            <CheckedField
              key={field}
              label={hotspot.keyFieldLabels[`image.${field}`]}
              problems={problemsAt(`image.${field}`)}
              hint={hint}
            >
              <input
                type={type}
                required={field !== 'alt'}
                min={type === 'number' ? '1' : undefined}
                step={type === 'number' ? '1' : undefined}
                value={draft.image[field]}
                onChange={(e) => set('image', { ...draft.image, [field]: e.target.value })}
              />
            </CheckedField>
          ))}
        </div>
      </fieldset>
      <div className="row">
        <CheckedField label="The taker" problems={problemsAt('select')}>
          <select value={draft.select} onChange={(e) => set('select', e.target.value as KeyDraft['select'])}>
            <option value="areas">Chooses among the areas (shown)</option>
            <option value="points">Places points on the image (areas not shown)</option>
          </select>
        </CheckedField>
        {draft.select === 'points' && (
          <CheckedField
            label="Most points"
            problems={problemsAt('max_points')}
            hint="1 to 20, at least the correct areas; empty for as many as the correct areas"
          >
            <input
              type="number"
              min="1"
              max="20"
              step="1"
              value={draft.max_points}
              onChange={(e) => set('max_points', e.target.value)}
            />
          </CheckedField>
        )}
      </div>
      <fieldset>
        <legend>Areas</legend>
        <p className="hint">In the image’s pixels, from its top left corner; tick the correct ones.</p>
        {problems ? (
          <p className="field-error" role="alert">
            {problems.join(' ')}
          </p>
        ) : null}
        {imageProblem(draft) ? (
          <p className="hint">Fill in the image’s address, width and height to draw the areas on it.</p>
        ) : (
          <Suspense fallback={<p className="hint">Loading the drawing tool…</p>}>
            <AreaDrawing image={imageOf(draft.image)} areas={areas} onAreas={(next) => set('areas', next)} />
          </Suspense>
        )}
        {areas.map((area, i) => (
          <AreaFields
            key={i}
            n={i + 1}
            area={area}
            update={(change) => update(i, change)}
            remove={() =>
              set(
                'areas',
                areas.filter((_, j) => j !== i),
              )
            }
          />
        ))}
        <button type="button" className="secondary" onClick={() => set('areas', [...areas, EMPTY_AREA])}>
          Add an area
        </button>
      </fieldset>
    </>
  );
}

/**
 * Choosing areas: per area, chosen or not beside the key, in words. Placing points: the points and
 * the correct areas (the taker's page had no areas to show).
 */
function Review(props: ReviewProps) {
  const { item, question } = props;
  if (question?.select === 'points' || !question?.areas)
    return <KeyedReview {...props} entered={hotspot.shownAnswer} shown={hotspot.shownAnswer} />;
  const chosen = new Set(picksOf(item.student_answer ?? ''));
  const key = new Set(picksOf(item.correct_answer ?? ''));
  const word = (on: boolean) => (on ? 'chosen' : 'not chosen');
  const parts = question.areas.map((area, i) => {
    const pick = String(i + 1);
    return {
      label: areaName(area, i + 1),
      answer: word(chosen.has(pick)),
      key: word(key.has(pick)),
      right: chosen.has(pick) === key.has(pick),
    };
  });
  return <PartsReview {...props} caption="Your areas" parts={parts} />;
}

export const hotspotModule: QuestionTypeModule = {
  ...hotspot,
  views: {
    TakerInput: { load: () => import('./takerInput').then((m) => m.TakerInput) },
    AuthorKey,
    Review,
  },
};
