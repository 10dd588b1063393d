import { z } from 'zod';
import { checkTexts, common, type Ctx, extras, refuseFieldsNotTaken, MAX_OPTION_LENGTH, storedBase } from '../fields';
import { partsText } from '../parts';
import type { QuestionExtras, TypedFields } from '../stored';
import { insideImage, shapeProblem, SHAPES } from './geometry';

export const MAX_AREAS = 30;
export const MAX_POINTS = 20;
export const HOTSPOT_SELECTS = ['areas', 'points'] as const;
const MAX_SIDE = 10_000;

/** An image a hotspot question is asked on: a stored media file, or an http(s) URL. */
export const MEDIA_SOURCE = /^(\/api\/media\/[A-Za-z0-9._-]{1,300}|https?:\/\/[^\s"'<>]{1,1900})$/;

const Image = z
  .strictObject({
    src: z
      .string()
      .trim()
      .regex(MEDIA_SOURCE, 'Must be /api/media/{mediaId} or an http(s) URL')
      .describe('/api/media/{mediaId} (a stored image) or an http(s) URL'),
    width: z
      .number()
      .int()
      .min(1)
      .max(MAX_SIDE)
      .describe('The image’s width in pixels: the frame of the areas’ coordinates'),
    height: z.number().int().min(1).max(MAX_SIDE).describe('Its height in pixels'),
    alt: z.string().trim().max(MAX_OPTION_LENGTH).optional().describe('What the image shows, for a screen reader'),
  })
  .meta({ id: 'HotspotImage' });

const AreaInput = z
  .strictObject({
    shape: z.enum(SHAPES),
    coords: z
      .array(z.number().min(-MAX_SIDE).max(MAX_SIDE))
      .min(3)
      .max(60)
      .describe('In the image’s pixels: circle x, y, r; rect x1, y1, x2, y2; poly x1, y1, x2, y2, x3, y3…'),
    correct: z.boolean().describe('Whether choosing it (or placing a point in it) is right'),
    label: z.string().trim().max(MAX_OPTION_LENGTH).optional().describe('Its name, for a screen reader and the review'),
  })
  .meta({ id: 'HotspotArea' });

const refuseOthers = refuseFieldsNotTaken('a hotspot question', 'its key is in areas');

export const HotspotInput = z
  .strictObject(
    {
      question_type: z.literal('hotspot'),
      ...common,
      ...extras,
      image: Image,
      areas: z.array(AreaInput).min(1).max(MAX_AREAS).describe('The areas, at least one correct'),
      select: z
        .enum(HOTSPOT_SELECTS)
        .describe(
          'areas: the taker chooses among the areas (shown); points: the taker places points (areas not shown)',
        ),
      max_points: z
        .number()
        .int()
        .min(1)
        .max(MAX_POINTS)
        .nullable()
        .optional()
        .describe('points only: the most points a taker may place (absent: as many as the correct areas)'),
    },
    refuseOthers,
  )
  .superRefine((q, ctx) => {
    checkTexts(q, ctx);
    checkAreas(q, ctx);
  })
  .meta({
    id: 'HotspotQuestionInput',
    description: 'Areas of an image to choose, or to place points in (docs/question-types.md)',
  });

type HotspotInput = z.output<typeof HotspotInput>;

function checkAreas(q: HotspotInput, ctx: Ctx): void {
  const issue = (path: Array<string | number>, message: string) => ctx.addIssue({ code: 'custom', path, message });
  q.areas.forEach((area, i) => {
    const problem = shapeProblem(area);
    if (problem) issue(['areas', i, 'coords'], problem);
    else if (!insideImage(area, q.image.width, q.image.height))
      issue(['areas', i, 'coords'], `Lies outside the image (${q.image.width} × ${q.image.height})`);
  });
  const correct = q.areas.filter((a) => a.correct).length;
  if (correct === 0) issue(['areas'], 'At least one area must be correct');
  if (q.select === 'areas' && q.max_points != null) issue(['max_points'], 'Allowed only when select is points');
  if (q.select === 'points' && q.max_points != null && q.max_points < correct)
    issue(['max_points'], `Must allow a point in each of the ${correct} correct areas`);
}

/** The correct areas' numbers (from 1), as the key's JSON array text. */
const keyOf = (areas: ReadonlyArray<{ correct: boolean }>): string =>
  partsText(areas.flatMap((a, i) => (a.correct ? [String(i + 1)] : [])));

export const normalizeHotspot = (input: HotspotInput): TypedFields<'hotspot'> => ({
  ...storedBase(input),
  question_type: input.question_type,
  options: [],
  correct_answer: keyOf(input.areas),
  tolerance: null,
});

export const hotspotExtras = (
  input: HotspotInput,
): Pick<QuestionExtras, 'image' | 'areas' | 'select' | 'max_points'> => ({
  image: {
    src: input.image.src,
    width: input.image.width,
    height: input.image.height,
    ...(input.image.alt ? { alt: input.image.alt } : {}),
  },
  areas: input.areas.map((a) => ({
    shape: a.shape,
    coords: a.coords,
    correct: a.correct,
    ...(a.label ? { label: a.label } : {}),
  })),
  select: input.select,
  ...(input.select === 'points' ? { max_points: input.max_points ?? input.areas.filter((a) => a.correct).length } : {}),
});
