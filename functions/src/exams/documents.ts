import type { QuestionExtras } from '../questionTypes';
import type { AccessCodeHash, OverrideValues } from '../sittingRules';
import type { TestStatus } from './lifecycle';

// Pure: the Firestore documents the exams feature owns (where they live: firestore/paths.ts).

/** clients/{clientId}/tests/{testId}. `version` is the latest published version's number (null before the first). */
export interface StoredTest {
  id: string;
  client_id: string;
  test_name: string;
  timer: number | null;
  shuffle: 0 | 1;
  allow_review: 0 | 1;
  negative_marking: 0 | 1;
  status: TestStatus;
  folder_id: string | null;
  question_ids: string[];
  description: string | null;
  max_attempts: number | null;
  negative_mark_ratio: number;
  created_at: string;
  updated_at: string;
  published_at: string | null;
  version: number | null;
  // Delivery settings: never frozen into a version; PATCH changes them at any time (absent on tests stored before them).
  opens_at?: string | null;
  closes_at?: string | null;
  /** The access code as set (trimmed): in the admins' replies, never in a taker's (sittingRules/accessCode.ts). */
  access_code?: string | null;
  /** A code set before codes were readable: its salted hash only, still compared, never in a reply; cleared when a code is set or cleared. */
  access_code_hash?: AccessCodeHash | null;
  attempt_cooldown_minutes?: number;
  review_opens_at?: string | null;
  /** 1: started, answered and submitted only from the organization's registered networks (copied onto each attempt at its start). */
  on_site_only?: 0 | 1;
  /** Write-only: Safe Exam Browser's Config Keys (lowercase hex SHA-256); any key here or below: SEB required (copied onto each attempt at its start). */
  seb_config_keys?: string[];
  /** Write-only: Safe Exam Browser's Browser Exam Keys. */
  seb_browser_exam_keys?: string[];
  /** Random draws beside the fixed question_ids (absent on tests stored before pools: none). */
  pools?: TestPool[];
  /** The classes the test is assigned to ([]: open to the whole organization; absent on tests stored before classes: open). */
  assigned_class_ids?: string[];
  /**
   * Derived from assigned_class_ids on every write (exams/audience.ts): ['*'] when open to the
   * organization, else the class ids. A student's list queries it; a test without it is listed
   * to nobody until scripts/backfill-audience.mjs (or any write of the test) gives it one.
   */
  audience?: string[];
  /** Per class of the organization: its students' override of the window, timer or attempts (sittings/). Never in a student's reply. */
  class_overrides?: Record<string, StoredClassOverride>;
  /** The keys of class_overrides, kept beside it so that a class's delete can find the tests holding one. */
  class_override_ids?: string[];
  /** Per published version ("1", "2", …): the revision its regrades brought it to (absent: 0). Read by every start. */
  key_revisions?: Record<string, number>;
  /**
   * The next version being edited while this one stays live (absent: none). The fields above stay the
   * live version's until it is published (exams/newVersion.ts). Never in a student's reply.
   */
  pending_edit?: StoredPendingEdit | null;
}

/** What a version freezes of a test (and folder_id, which files it). */
export type TestContent = Pick<
  StoredTest,
  | 'test_name'
  | 'timer'
  | 'shuffle'
  | 'allow_review'
  | 'negative_marking'
  | 'folder_id'
  | 'question_ids'
  | 'description'
  | 'max_attempts'
  | 'negative_mark_ratio'
> & { pools?: TestPool[] };

/** A published test's next version as it is being edited: its content, and from which version it was opened. */
export interface StoredPendingEdit extends TestContent {
  pools: TestPool[];
  base_version: number;
  opened_by: string;
  opened_at: string;
  updated_at: string;
}

/** A class's override on a test, with who set it and when (the values alone decide: sittingRules/classOverrides.ts). */
export interface StoredClassOverride extends OverrideValues {
  set_by: string;
  updated_at: string;
}

/** A pool of a test: `draw` questions drawn per attempt from a folder (of one difficulty, when named). */
export interface TestPool {
  folder_id: string;
  difficulty: string | null;
  draw: number;
}

/** A pool as a version froze it: the ids of the questions it draws from (disjoint from the fixed ones and the other pools'). */
export interface VersionPool extends TestPool {
  question_ids: string[];
  /**
   * Each frozen question's marks, in question_ids' order, kept by every regrade that changes them: the totals
   * an attempt can draw (exams/totals.ts) come from the version alone. Absent on versions published before.
   */
  question_marks?: number[];
}

/**
 * A question as frozen into a version: everything needed to show and to score it.
 * The bank's optional fields (QuestionExtras: title, text_format, feedback,
 * option_feedback, option_credits, alternatives, case_sensitive) are frozen when
 * set, absent otherwise (and on every version frozen before them).
 */
export interface FrozenQuestion extends QuestionExtras {
  id: string;
  question_text: string;
  question_type: string;
  options: string[];
  correct_answer: string;
  tolerance: number | null;
  marks: number;
  difficulty: string;
  /** Essays only: the most words an answer may have (null: no limit). Absent on versions frozen before essays. */
  max_words?: number | null;
}

/** A passage (a description its questions name by passage_id) as frozen into a version: what a taker is shown of it. */
export interface FrozenPassage {
  id: string;
  question_text: string;
  /** Present when its text is HTML. */
  text_format?: 'html';
}

/**
 * clients/{clientId}/tests/{testId}/versions/{n}: the test as published, with
 * its questions in order and their answer keys. Starting an attempt reads this
 * one document; nothing edits it after it is written. Server side only.
 */
export interface TestVersion {
  version: number;
  test_id: string;
  client_id: string;
  published_at: string;
  published_by: string;
  test: Pick<
    StoredTest,
    | 'test_name'
    | 'timer'
    | 'shuffle'
    | 'allow_review'
    | 'negative_marking'
    | 'description'
    | 'max_attempts'
    | 'negative_mark_ratio'
    | 'question_ids'
  >;
  /** The fixed questions. */
  questions: FrozenQuestion[];
  /** The fixed questions' marks; an attempt that draws from pools has its own total. */
  total_marks: number;
  /** The pools, frozen; each pool's questions are documents of pool_freezes/{pool_freeze_id}/questions. */
  pools?: VersionPool[];
  pool_freeze_id?: string | null;
  /** The passages its questions (fixed and pooled) name, each once, as they stood at the publish (absent: none). */
  passages?: FrozenPassage[];
  /** Raised by each regrade that changed a frozen question (absent: 0): caches older than an attempt's key_revision are read again. */
  revision?: number;
}

/**
 * share_codes/{code}. Its uses are counted on its seat shards (StoredSeat),
 * never on this document, which a class redeeming at once would overload (see seats.ts).
 */
export interface StoredShareCode {
  code: string;
  client_id: string;
  test_id: string;
  expires_at: string | null;
  max_uses: number | null;
  seat_shards: number;
  revoked: boolean;
  revoked_at: string | null;
  created_by: string;
  created_at: string;
}

/** share_codes/{code}/seats/{k}: one shard of a code's seats; `capacity` null when the code has no limit. */
export interface StoredSeat {
  capacity: number | null;
  used: number;
}
