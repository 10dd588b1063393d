import { z } from 'zod';
import { Alternative, MAX_ALTERNATIVES, MAX_MARKS, MAX_OPTION_LENGTH } from './fields';
import { MAX_DRAG_OPTIONS, MAX_GAP_OPTIONS, MAX_GAPS } from './gapFill/schema';
import { MAX_HOTTEXTS } from './hottext/schema';
import { MAX_MATCHING_OPTIONS, MAX_STEMS } from './matching/schema';
import { ORDERING_SCORES } from './ordering/schema';
import { GAP_KINDS } from './stored';
import { HOTSPOT_SELECTS, MAX_AREAS, MAX_POINTS } from './hotspot/schema';
import { MAX_CHOICES, MAX_FORMULA, MAX_VARIABLES, TOLERANCE_TYPES } from './calculated/schema';
import { MAX_ESSAY_ATTACHMENTS } from './essay/schema';

// Pure: the fields of the types with parts as an administrator's reply shows them, and as a PATCH
// may send them (bounded loosely: the question as changed is then checked by its type's schema).

const StoredGap = z
  .object({
    kind: z.enum(GAP_KINDS),
    answers: z.array(Alternative),
    options: z.array(z.string()).optional(),
    case_sensitive: z.boolean().optional(),
    weight: z.number(),
  })
  .meta({
    id: 'StoredGap',
    description: 'A gap as stored: its answers (the first full-credit one is the key), a select’s options, its weight',
  });

export const TYPED_REPLY_FIELDS = {
  stems: z.array(z.string()).optional().describe('matching: the texts to match'),
  matches: z.array(z.string()).optional().describe('matching: per stem, the option that matches it'),
  ordering_score: z
    .enum(ORDERING_SCORES)
    .optional()
    .describe('ordering: present (partial) when scored by the longest ordered subset'),
  gaps: z.array(StoredGap).optional().describe('gap_fill: gap n ([[n]] in the text) at index n − 1'),
  drag_options: z.array(z.string()).optional().describe('gap_fill: the chips of its drag gaps'),
  drag_reusable: z.boolean().optional().describe('gap_fill: present (true) when a chip may fill several gaps'),
  max_choices: z.number().int().optional().describe('hottext: the most phrases a taker may choose; absent: no limit'),
  variables: z
    .array(z.object({ name: z.string(), min: z.number(), max: z.number(), decimals: z.number().int() }))
    .optional()
    .describe('calculated: the variables drawn per attempt'),
  choices: z
    .array(z.object({ formula: z.string(), credit: z.number(), decimals: z.number().int().optional() }))
    .optional()
    .describe('calculated with choices: each a formula shown as its value, with its credit'),
  tolerance_type: z
    .enum(TOLERANCE_TYPES)
    .optional()
    .describe('calculated: present (relative) when tolerance is a share of the right answer'),
  image: z
    .object({ src: z.string(), width: z.number().int(), height: z.number().int(), alt: z.string().optional() })
    .optional()
    .describe('hotspot: the image and its frame'),
  areas: z
    .array(
      z.object({
        shape: z.enum(['circle', 'rect', 'poly']),
        coords: z.array(z.number()),
        correct: z.boolean(),
        label: z.string().optional(),
      }),
    )
    .optional()
    .describe('hotspot: its areas in the image’s pixels'),
  select: z.enum(HOTSPOT_SELECTS).optional().describe('hotspot: areas or points'),
  max_points: z.number().int().optional().describe('hotspot with points: the most a taker may place'),
  attachments: z.number().int().optional().describe('essay: the most files a taker may attach; absent: none'),
  attachments_required: z
    .number()
    .int()
    .optional()
    .describe('essay with attachments: the fewest files a taker is asked to attach; absent: none'),
};

const text = z.string().max(MAX_OPTION_LENGTH * 2);

export const TYPED_CHANGES = {
  stems: z
    .array(text)
    .max(MAX_STEMS * 2)
    .nullable()
    .optional(),
  matches: z
    .array(text)
    .max(MAX_STEMS * 2)
    .nullable()
    .optional(),
  ordering_score: z.enum(ORDERING_SCORES).nullable().optional(),
  gaps: z
    .array(
      z.strictObject({
        kind: z.enum(GAP_KINDS),
        answers: z.array(Alternative).max(MAX_ALTERNATIVES * 2),
        options: z
          .array(text)
          .max(MAX_GAP_OPTIONS * 2)
          .optional(),
        case_sensitive: z.boolean().optional(),
        weight: z
          .number()
          .max(MAX_MARKS * 2)
          .optional(),
      }),
    )
    .max(MAX_GAPS * 2)
    .nullable()
    .optional(),
  drag_options: z
    .array(text)
    .max(MAX_DRAG_OPTIONS * 2)
    .nullable()
    .optional(),
  drag_reusable: z.boolean().nullable().optional(),
  max_choices: z
    .number()
    .max(MAX_HOTTEXTS * 2)
    .nullable()
    .optional(),
  variables: z
    .array(z.object({ name: z.string().max(40), min: z.number(), max: z.number(), decimals: z.number() }))
    .max(MAX_VARIABLES * 2)
    .nullable()
    .optional(),
  formula: z
    .string()
    .max(MAX_FORMULA * 2)
    .optional(),
  choices: z
    .array(z.object({ formula: z.string().max(MAX_FORMULA * 2), credit: z.number(), decimals: z.number().optional() }))
    .max(MAX_CHOICES * 2)
    .nullable()
    .optional(),
  tolerance_type: z.enum(TOLERANCE_TYPES).nullable().optional(),
  image: z
    .object({ src: z.string().max(2000), width: z.number(), height: z.number(), alt: z.string().max(1000).optional() })
    .nullable()
    .optional(),
  areas: z
    .array(
      z.object({
        shape: z.string().max(20),
        coords: z.array(z.number()).max(120),
        correct: z.boolean(),
        label: z.string().max(1000).optional(),
      }),
    )
    .max(MAX_AREAS * 2)
    .nullable()
    .optional(),
  select: z.enum(HOTSPOT_SELECTS).nullable().optional(),
  max_points: z
    .number()
    .max(MAX_POINTS * 2)
    .nullable()
    .optional(),
  attachments: z
    .number()
    .max(MAX_ESSAY_ATTACHMENTS * 2)
    .nullable()
    .optional(),
  attachments_required: z
    .number()
    .max(MAX_ESSAY_ATTACHMENTS * 2)
    .nullable()
    .optional(),
};

export { MAX_HOTTEXTS, MAX_MATCHING_OPTIONS };
