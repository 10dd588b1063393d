import * as logger from 'firebase-functions/logger';

// The service's structured log (Cloud Logging through firebase-functions). One
// module, so that every severity decision is greppable and tests that inject a
// fault can read what was logged about it. The logger comes from its own entry:
// the package's main entry loads every v2 provider (the Realtime Database client
// among them), about 100 ms of a cold start for nothing the API uses.

export type Severity = 'WARNING' | 'ERROR';
export interface LogEntry {
  severity: Severity;
  message: string;
  data: Record<string, unknown>;
}

const toCloudLogging = (entry: LogEntry): void => {
  if (entry.severity === 'ERROR') logger.error(entry.message, entry.data);
  else logger.warn(entry.message, entry.data);
};

// Test captures: while any is open, entries go to every one of them instead of Cloud Logging.
const captures = new Set<(entry: LogEntry) => void>();

function sink(entry: LogEntry): void {
  if (captures.size === 0) return toCloudLogging(entry);
  for (const capture of captures) capture(entry);
}

export const log = {
  error: (message: string, data: Record<string, unknown> = {}): void => sink({ severity: 'ERROR', message, data }),
  warn: (message: string, data: Record<string, unknown> = {}): void => sink({ severity: 'WARNING', message, data }),
};

/** An error as a log field: its message, never a stack sent to a caller. */
export const errorText = (err: unknown): string => (err instanceof Error ? err.message : String(err));

/**
 * Test hook: send entries to `capture` (and to any other capture open at the same
 * time) instead of Cloud Logging, until the returned function is called. Captures
 * may close in any order: several in-process servers can be open at once.
 */
export function captureLog(capture: (entry: LogEntry) => void): () => void {
  const own = (entry: LogEntry) => capture(entry);
  captures.add(own);
  return () => {
    captures.delete(own);
  };
}
