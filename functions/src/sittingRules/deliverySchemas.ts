import { z } from 'zod';
import { isWellFormedText, MAX_ID_LENGTH, MAX_SEB_KEYS, SEB_KEY_PATTERN } from '../shared';

// A test's delivery settings (when and how it is sat): not frozen by
// publishing, so they are given on create (absent: the default) and replace
// (absent: kept as stored) and changed by PATCH at any time. Imported by the tests' schemas; imports nothing of theirs.

export const MAX_COOLDOWN_MINUTES = 10_080;
export const ACCESS_CODE_MIN = 4;
export const ACCESS_CODE_MAX = 64;
/**
 * The most classes a test is assigned to: classes/documents.ts's MAX_CLASSES_PER_TEST, repeated
 * here because the sitting rules import no feature folder (a test checks that the two agree).
 */
export const MAX_ASSIGNED_CLASSES = 50;

const Flag = z.union([z.literal(0), z.literal(1)]);

/** What on_site_only means, as the request and reply schemas describe it. */
const ON_SITE_ONLY_TEXT =
  '0 or 1 (default 0 on create; absent keeps it on PUT and PATCH). 1: starting, answering and submitting are taken only from an address inside the test organization’s registered networks ' +
  '(GET/PUT /api/clients/{clientId}/networks); from any other address → 403 FORBIDDEN "This test can be taken only on site". Reading is never bound (administrators reading results, takers reading their attempt). ' +
  'An attempt keeps the value it started with: a change reaches attempts started, or resumed by starting again, after it';

/** Years 0000 to 9999 in UTC: beyond them an instant is written `+010000-…` or `-000001-…`, which no ISO 8601 reader (this one included) takes back. */
const FIRST_INSTANT_MS = Date.parse('0000-01-01T00:00:00.000Z');
const LAST_INSTANT_MS = Date.parse('9999-12-31T23:59:59.999Z');

/** An instant in ISO 8601 with an offset; stored and answered in UTC, so it must fall within years 0000 to 9999 in UTC. */
const Instant = (what: string) =>
  z.iso
    .datetime({ offset: true })
    .refine((text) => Number.isFinite(Date.parse(text)), 'Must be a real instant')
    .refine(
      (text) => !(Date.parse(text) < FIRST_INSTANT_MS || Date.parse(text) > LAST_INSTANT_MS),
      'Must fall within years 0000 to 9999 in UTC',
    )
    .describe(`${what}: ISO 8601 with an offset, within years 0000 to 9999 in UTC (stored and answered in UTC)`);

/** A class id as a body names it: one that could name no document is refused here (400). */
const ClassIdInput = z
  .string()
  .min(1)
  .max(MAX_ID_LENGTH)
  .regex(/^[A-Za-z0-9_-]+$/, 'Must be letters, digits, "_" or "-"')
  .refine((id) => !/^__.*__$/.test(id), 'Must not begin and end with "__"')
  .describe(`A class id, 1 to ${MAX_ID_LENGTH} letters, digits, "_" or "-" (not "__…__")`);

const ASSIGNED_TEXT =
  `The classes of the test’s organization the test is assigned to, each once, at most ${MAX_ASSIGNED_CLASSES}. ` +
  '[] (the default): open to every student of the organization. Otherwise a student lists, reads and starts it only when in one of them ' +
  '(anything else answers 404 as for a missing test); share codes and an administrator starting for a student are unaffected. ' +
  'Another organization’s class → 403; a class that does not exist → 400 naming it. Audited as test_assignment_changed';

export const AccessCodeInput = z
  .string()
  .min(ACCESS_CODE_MIN)
  .max(ACCESS_CODE_MAX)
  .refine(isWellFormedText, 'Must be well-formed text (no lone surrogates)');

/** A code as an admin sets it: stored without its surrounding spaces, which no comparison counts. */
const AccessCodeSetting = z
  .string()
  .trim()
  .min(ACCESS_CODE_MIN)
  .max(ACCESS_CODE_MAX)
  .refine(isWellFormedText, 'Must be well-formed text (no lone surrogates)');

/** A Safe Exam Browser key list: at most MAX_SEB_KEYS distinct lowercase-hex SHA-256 keys. */
const sebKeyList = (what: string) =>
  z
    .array(z.string().regex(SEB_KEY_PATTERN, 'Must be 64 lowercase hexadecimal digits (a SHA-256 key as SEB shows it)'))
    .max(MAX_SEB_KEYS)
    .superRefine((keys, ctx) => {
      if (new Set(keys).size !== keys.length) ctx.addIssue({ code: 'custom', message: 'Each key may appear once' });
    })
    .optional()
    .describe(
      `Write-only: up to ${MAX_SEB_KEYS} ${what} (64 lowercase hex digits each). With any Config Key or Browser Exam Key, the taker’s start, answers, events and submit must come from ` +
        'Safe Exam Browser: X-SafeExamBrowser-ConfigKeyHash (against the Config Keys) or X-SafeExamBrowser-RequestHash (against the Browser Exam Keys) equal to SHA-256 hex of the request’s full URL (fragment removed) followed by a key; ' +
        'else 403 "This test must be taken in Safe Exam Browser" (see docs/security.md#safe-exam-browser). Never answered (replies carry seb_required). [] clears the list; absent keeps it (on PUT too). ' +
        'An attempt keeps the keys it started (or was last resumed) with',
    )
    .meta({ writeOnly: true });

export const sebDeliveryFields = {
  seb_config_keys: sebKeyList('Config Keys'),
  seb_browser_exam_keys: sebKeyList('Browser Exam Keys'),
};

/** Delivery settings: not frozen by publishing; given on create and replace (absent: kept), changed by PATCH at any time. */
export const deliveryFields = {
  opens_at: Instant('No new attempt starts before it')
    .nullable()
    .optional()
    .describe('ISO 8601; no new attempt starts before it. null: open. Absent: open on create, kept on PUT and PATCH'),
  closes_at: Instant('No new attempt starts from it on, and attempts in progress end by it')
    .nullable()
    .optional()
    .describe(
      'ISO 8601, after opens_at: no new attempt starts from it on, and every attempt in progress ends by it (expires_at is the earlier of started_at + timer and closes_at). ' +
        'Moving it recomputes the deadlines of the attempts in progress. null: none. Absent: none on create, kept on PUT and PATCH',
    ),
  access_code: AccessCodeSetting.nullable()
    .optional()
    .describe(
      `${ACCESS_CODE_MIN} to ${ACCESS_CODE_MAX} characters once surrounding spaces are removed: a taker starting a new attempt must send it, in any case, spaces around it ignored ` +
        '(403 otherwise: a refused credential, docs/security.md#rate-limits). The organization’s administrators read it back (access_code in Test); takers never receive it ' +
        '(their replies carry access_code_required). null clears it; absent keeps it (on PUT too)',
    ),
  attempt_cooldown_minutes: z
    .int()
    .min(0)
    .max(MAX_COOLDOWN_MINUTES)
    .optional()
    .describe(
      `0 to ${MAX_COOLDOWN_MINUTES}: the least time between a student’s last submitted attempt of the test and its next start (default 0 on create; absent keeps it on PUT and PATCH)`,
    ),
  review_opens_at: Instant('Takers see their review from then')
    .nullable()
    .optional()
    .describe(
      'ISO 8601: with allow_review 1, takers see their review only from then (administrators always). null: on submission. Absent: on submission on create, kept on PUT and PATCH',
    ),
  on_site_only: Flag.optional().describe(ON_SITE_ONLY_TEXT),
  assigned_class_ids: z
    .array(ClassIdInput)
    .max(MAX_ASSIGNED_CLASSES)
    .superRefine((ids, ctx) => {
      const seen = new Set<string>();
      const repeated = new Set(ids.filter((id) => seen.size === seen.add(id).size));
      if (repeated.size > 0)
        ctx.addIssue({ code: 'custom', message: `Each class may appear once; repeated: ${[...repeated].join(', ')}` });
    })
    .optional()
    .describe(ASSIGNED_TEXT),
  ...sebDeliveryFields,
};

/** closes_at after opens_at when both are sent (PATCH checks the stored values too). */
export function refineWindow(
  body: { opens_at?: string | null; closes_at?: string | null },
  ctx: z.RefinementCtx,
): void {
  if (body.opens_at && body.closes_at && Date.parse(body.closes_at) <= Date.parse(body.opens_at)) {
    ctx.addIssue({ code: 'custom', path: ['closes_at'], message: 'Must be after opens_at' });
  }
}

export const PatchTestBody = z
  .strictObject(deliveryFields)
  .superRefine(refineWindow)
  .refine((body) => Object.keys(body).length > 0, { message: 'Send at least one delivery setting to change' })
  .meta({
    id: 'PatchTest',
    description: 'Delivery settings only; a test’s content (questions, timer, marking) is changed with PUT on a draft',
  });
export type PatchTestInput = z.infer<typeof PatchTestBody>;

/** Delivery settings as every reader of a test sees them (never the access code). */
export const deliveryReplyFields = {
  opens_at: z.string().nullable().describe('ISO 8601 UTC; null: open'),
  closes_at: z.string().nullable().describe('ISO 8601 UTC; null: no closing time'),
  access_code_required: z.boolean().describe('true: starting a new attempt needs the test’s access code'),
  attempt_cooldown_minutes: z
    .number()
    .int()
    .describe('Least minutes between a student’s last submission and its next start'),
  review_opens_at: z
    .string()
    .nullable()
    .describe('ISO 8601 UTC; with allow_review 1, takers see reviews from then. null: on submission'),
  on_site_only: Flag.describe(ON_SITE_ONLY_TEXT),
  seb_required: z
    .boolean()
    .describe(
      'true: the test has Safe Exam Browser keys; its takers start, answer and submit from SEB (the keys themselves are never answered)',
    ),
};

/** Delivery settings only the test's authors see. */
export const authorDeliveryReplyFields = {
  access_code: z
    .string()
    .nullable()
    .describe(
      'The access code as the organization’s administrators set it (never in a taker’s reply). null with access_code_required false: none; ' +
        'null with access_code_required true: a code stored before codes were readable (a hash only), which still works: set it again to read it',
    ),
  assigned_class_ids: z
    .array(z.string())
    .describe('The classes the test is assigned to; []: open to the whole organization'),
};
