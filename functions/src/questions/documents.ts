import type { QuestionExtras, QuestionType, TypedFields } from '../questionTypes';

// Pure: the Firestore documents the questions feature owns (where they live: firestore/paths.ts).

/**
 * A question as stored in clients/{clientId}/questions/{id}: exactly these fields; those its
 * type decides (questionTypes/stored.ts: the core fields every question has, the optional ones).
 */
export type StoredQuestion = QuestionExtras &
  TypedFields<QuestionType> & {
    id: string;
    client_id: string;
    folder_id: string | null;
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
