import type { Accommodation, OverrideValues } from '../sittingRules';

// Pure: the Firestore documents the sittings feature owns (where they live: firestore/paths.ts).

/** clients/{clientId}/tests/{testId}/overrides/{studentId}: a test's settings, replaced for one student. */
export interface StoredOverride extends OverrideValues {
  test_id: string;
  student_id: string;
  client_id: string;
  set_by: string;
  updated_at: string;
}

/** clients/{clientId}/accommodations/{studentId}: a student's standing extra time, for every test of its organization. */
export interface StoredAccommodation extends Accommodation {
  student_id: string;
  client_id: string;
  set_by: string;
  updated_at: string;
}

/**
 * How many overrides a test holds (clients/{c}/tests/{t}/sitting_counts/overrides)
 * or accommodations an organization holds (clients/{c}/sitting_counts/accommodations):
 * the bound is checked on it, in the transaction that adds one.
 */
export interface StoredCount {
  count: number;
}

/**
 * deadline_sweeps/{id}: the attempts in progress a change concerns, to be
 * brought to their new deadlines. Written in the change's own transaction, so
 * a crash after the change leaves the sweep to finish (the scheduled closer
 * resumes sweeps left pending). Top level: the closer finds pending ones
 * across organizations with one automatic single-field index.
 */
export interface StoredSweep {
  client_id: string;
  /** Which attempts in progress: a test's, a student's, or one student's on one test. */
  test_id: string | null;
  student_id: string | null;
  /** A sitting-wide extension: these minutes for every attempt in progress created before this sweep was. */
  extension_minutes: number | null;
  /** A class's extension: only the attempts that started in this class (absent or null: every attempt of the test). */
  class_id?: string | null;
  reason: SweepReason;
  by: string;
  pending: boolean;
  /** The last attempt id handled, in document order: a resumed sweep starts after it. */
  cursor: string | null;
  created_at: string;
  updated_at: string;
  /** Attempts whose deadline this sweep changed (or extended), and those it closed. */
  changed: number;
  closed: number;
  /** TTL: a finished sweep is deleted 30 days on. */
  expires_at: Date | null;
}

export type SweepReason =
  'closes_at_changed' | 'override_changed' | 'accommodation_changed' | 'test_extended' | 'class_override_changed';
