import { z } from 'zod';
import { GAP_KINDS } from './stored';

// Pure: the fields a taker may be shown beside a question's text and options, each only by the
// types that show it (its module's takerView). A reply names exactly these: nothing else of a
// stored question, its key least of all, can reach a taker.

export const TAKER_FIELDS = {
  max_words: z
    .number()
    .int()
    .nullable()
    .optional()
    .describe('Essays only: the most words the answer may have (null: no limit)'),
  attachments: z
    .number()
    .int()
    .optional()
    .describe(
      'Essays that take files only: the most files the taker may attach (POST /api/attempts/{attemptId}/answers/{questionId}/attachments)',
    ),
  attachments_required: z
    .number()
    .int()
    .optional()
    .describe('Essays that take files only: the fewest files the taker is asked to attach (0: none required)'),
  stems: z
    .array(z.string())
    .optional()
    .describe('matching only: the texts to match, in order; the answer gives one option per stem'),
  gaps: z
    .array(
      z.object({
        kind: z.enum(GAP_KINDS),
        options: z.array(z.string()).optional().describe('select only: the drop-down’s choices'),
      }),
    )
    .optional()
    .describe('gap_fill only: gap n (written [[n]] in the text) at index n − 1, its kind and a select’s choices'),
  drag_options: z.array(z.string()).optional().describe('gap_fill with drag gaps: the chips to place in them'),
  drag_reusable: z.boolean().optional().describe('gap_fill with drag gaps: true when a chip may fill several gaps'),
  max_choices: z
    .number()
    .int()
    .nullable()
    .optional()
    .describe('hottext only: the most phrases a taker may choose (null: no limit)'),
  image: z
    .object({ src: z.string(), width: z.number().int(), height: z.number().int(), alt: z.string().optional() })
    .optional()
    .describe('hotspot only: the image (its width and height are the frame of coordinates)'),
  select: z
    .enum(['areas', 'points'])
    .optional()
    .describe('hotspot only: areas: choose among `areas`; points: place up to max_points points on the image'),
  areas: z
    .array(
      z.object({
        shape: z.enum(['circle', 'rect', 'poly']),
        coords: z.array(z.number()),
        label: z.string().optional(),
      }),
    )
    .optional()
    .describe('hotspot choosing areas only: the areas to choose among (never which are correct)'),
  max_points: z
    .number()
    .int()
    .nullable()
    .optional()
    .describe('hotspot placing points only: the most points the answer may place'),
};

/** The fields as a type's takerView sets them. */
export type TakerExtras = { [K in keyof typeof TAKER_FIELDS]?: z.output<(typeof TAKER_FIELDS)[K]> };
