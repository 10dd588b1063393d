import type { Difficulty, QuestionType, TextFormat } from './schemas';

// Pure: the Firestore documents the questions feature owns (where they live: firestore/paths.ts).

/** A further accepted answer of a short_answer or numeric question. */
export interface StoredAlternative {
  answer: string;
  /** 0 to 100: the share of the marks it earns. */
  credit: number;
  /** numeric only: its own accepted difference (absent: 0). */
  tolerance?: number;
}

/**
 * The optional fields of a question: each stored only when set (absent on
 * questions stored before them, and meaning the old behaviour), never as null.
 */
export interface QuestionExtras {
  title?: string;
  /** Stored only as 'html' (sanitized question_text, feedback and option_feedback); absent: plain. */
  text_format?: TextFormat;
  /** General feedback, shown in a released review. */
  feedback?: string;
  /** One per option, in the options' order ("" for none). */
  option_feedback?: string[];
  /** multiple_select partial credit: one per option, −100 to 100. */
  option_credits?: number[];
  /** short_answer and numeric: further accepted answers. */
  alternatives?: StoredAlternative[];
  /** short_answer: stored only as true. */
  case_sensitive?: boolean;
}

/** A question as stored in clients/{clientId}/questions/{id}: exactly these fields. */
export type StoredQuestion = QuestionExtras & {
  id: string;
  client_id: string;
  folder_id: string | null;
  question_text: string;
  question_type: QuestionType;
  options: string[];
  /** Empty for an essay (graded by a person; replies say null). */
  correct_answer: string;
  tolerance: number | null;
  /** Essays only: the most words an answer may have (null: no limit, and for every other type). */
  max_words: number | null;
  marks: number;
  difficulty: Difficulty;
  created_at: string;
  updated_at: string;
};

export type ImportStatus = 'staging' | 'committed' | 'complete';

/** clients/{clientId}/question_imports/{sha256}: an import's state (see importStore.ts for its steps). */
export interface ImportRecord {
  id: string;
  client_id: string;
  status: ImportStatus;
  /** Changes whenever the import changes hands (claimed, taken over): a stale worker cannot commit. */
  claim: string;
  question_ids: string[];
  /** Folders the import writes into until it is complete: a folder delete treats them as contents. */
  pending_folder_ids: string[];
  chunk_count: number;
  imported: number;
  failed: number;
  created_by: string;
  created_at: string;
  lease_expires_at: string | null;
  completed_at: string | null;
  /** Publishing batches already written (step 4), so a roll forward writes only the rest. */
  published_batches?: number[];
}

/** clients/{clientId}/question_imports/{sha256}/chunks/{n}: staged questions, a JSON array of StoredQuestion. */
export interface StoredImportChunk {
  payload: string;
}
