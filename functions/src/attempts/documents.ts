import type { EssayGrade, QuestionResult } from './scoring';
import type { AttemptStatus } from './schemas';
import type { SebKeys } from '../shared';

// Pure: the Firestore documents the attempts feature owns (where they live: firestore/paths.ts).

export interface StoredAnswer {
  answer: string;
  saved_at: string;
  /**
   * The client's own counter for this question, from the last save that sent
   * one (a save without it keeps it): a save whose client_seq is not above it is
   * stale and not applied (answerMerge.ts). Absent until a save sends one.
   */
  client_seq?: number;
}

/** clients/{clientId}/attempts/{attemptId}. `token_hash` and `results` never leave the server as such. */
export interface StoredAttempt {
  id: string;
  client_id: string;
  test_id: string;
  /** The version's test_name, kept on the attempt so a student's results list needs no version reads. */
  test_name?: string;
  version: number;
  student_id: string;
  /**
   * The student's classes when the attempt started (a Guest's: none; absent on attempts from before
   * classes): which classes' overrides gave its deadline, and which classes' analytics count it.
   */
  class_ids?: string[];
  guest: boolean;
  guest_name: string | null;
  share_code: string | null;
  started_by: string;
  status: AttemptStatus;
  started_at: string;
  expires_at: string;
  submitted_at: string | null;
  auto_submitted: boolean;
  /** Who submitted it (absent on attempts submitted before it was recorded: see rules.ts submittedBy). */
  submitted_by?: SubmittedBy | null;
  /** questionId → the last answer saved for it. Updated one field path at a time. */
  answers: Record<string, StoredAnswer>;
  /** questionId → the files its taker attached to that essay, in the order attached (absent: none). Its bytes are in Cloud Storage. */
  attachments?: Record<string, StoredAttachment[]>;
  /** The question ids in this attempt's order (the order is also a pure function of the id: shuffle.ts). */
  question_order: string[];
  /** SHA-256 of the current attempt token (hex); a new start of the same attempt replaces it. */
  token_hash: string;
  /**
   * Whom the current token was issued to (the caller of the start or resume
   * that made it), written with token_hash: a submit with the token is theirs.
   * Absent on attempts from before it was kept: their token speaks for the taker.
   */
  token_issued_to?: { uid: string; role: 'super_admin' | 'client_admin' | 'student' | 'guest' | null };
  score: number | null;
  total_marks: number;
  /** score / total_marks × 100 once submitted with a final score (null while an essay awaits its grade): a student's averages and best are index aggregations over it. */
  percentage?: number | null;
  /**
   * The score once it is final (submitted, every essay graded); absent while in progress or pending.
   * A version's highest and lowest scores are read from an index over it. An attempt never goes back to pending.
   */
  final_score?: number;
  results: QuestionResult[] | null;
  /** Set while in progress when its test was archived or its share code revoked: no more answers, submitting still scores it. */
  stopped?: { reason: StopReason; at: string } | null;
  /**
   * The test's on_site_only as it stood when the attempt started (or was last
   * resumed): 1, its answers and its submit come only from the organization's
   * registered networks. Read with the attempt, so saves and submits read
   * nothing more for it. Absent on attempts started before the setting (0).
   */
  on_site_only?: 0 | 1;
  /**
   * The test's Safe Exam Browser keys as they stood when the attempt started (or was last resumed): answers
   * and submits by its taker must come from SEB with one of them. Absent or null: SEB not required.
   */
  seb?: SebKeys | null;
  /** Extra time granted while in progress: extension id → minutes (kept by id, so applying one twice extends once). */
  extensions?: Record<string, number>;
  /** The pool questions drawn at its start, pool after pool (absent: none); its questions are the version's fixed ones and these. */
  drawn?: string[];
  /** The version's revision this attempt is shown and scored with at least: raised by a regrade while it is in progress (absent: 0). */
  key_revision?: number;
  /** null or absent without essays; "pending" until every answered essay is graded, then "complete". */
  grading?: 'pending' | 'complete' | null;
  /** The marks of the answered essays still to be graded. */
  pending_marks?: number;
  /** The essays' grades, by question id. */
  grades?: Record<string, StoredGrade>;
  /** How many times its score was written (submit, each grade, each regrade that changed it); absent: 0, in progress. */
  revision?: number;
}

/** A file a taker attached to an essay: its bytes at paths.attachmentObject(client, attempt, id). */
export interface StoredAttachment {
  id: string;
  /** The file's name as the taker's browser gave it, made safe to show (attachments/rules.ts attachmentName); never used to decide its type. */
  name: string;
  /** What its content was found to be (never the sender's word). */
  content_type: 'application/pdf' | 'image/png' | 'image/jpeg';
  size: number;
  /** Hex SHA-256 of the bytes. */
  sha256: string;
  uploaded_at: string;
}

export interface StoredGrade extends EssayGrade {
  feedback: string | null;
  graded_by: string;
  graded_at: string;
}

/** clients/{c}/tests/{t}/grading_queue/{attemptId}~{questionId}: an answered essay of a submitted attempt, waiting for its grade. */
export interface StoredGradingItem {
  attempt_id: string;
  question_id: string;
  client_id: string;
  test_id: string;
  version: number;
  student_id: string;
  guest_name: string | null;
  question_text: string;
  /** 'html' when question_text is (sanitized) HTML; absent: plain (and on items queued before HTML texts). */
  text_format?: 'html';
  marks: number;
  max_words: number | null;
  student_answer: string;
  /** The files attached to the answer (absent: none, and on items queued before attachments). */
  attachments?: StoredAttachment[];
  submitted_at: string;
}

/** `taker`, `deadline` (closed by the service) or `admin` (an administrator of its organization submitted it). */
export type SubmittedBy = 'taker' | 'deadline' | 'admin';

/** Why an attempt in progress takes no more answers, though it can still be submitted. */
export type StopReason = 'test_archived' | 'share_code_revoked';

/** clients/{clientId}/tests/{testId}/attempt_slots/{studentId}: the per-(test, student) counter. */
export interface AttemptSlot {
  test_id: string;
  student_id: string;
  client_id: string;
  /** Attempts ever started on the test by the student: max_attempts is checked against it. */
  count: number;
  /** The attempt in progress, if any: a start while it runs resumes it. */
  in_progress: { attempt_id: string; version: number; started_at: string; expires_at: string; drawn?: string[] } | null;
  /** When the student's last attempt of the test was submitted: the cooldown counts from it. */
  last_submitted_at?: string | null;
  /** Pool questions the student was given in its attempts of the test (draw.ts): the next draw prefers the others. */
  seen?: string[];
}
