import { logger } from 'firebase-functions';

// The service's structured log (Cloud Logging through firebase-functions). One
// module, so that every severity decision is greppable and tests that inject a
// fault can read what was logged about it.

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

let sink: (entry: LogEntry) => void = toCloudLogging;

export const log = {
  error: (message: string, data: Record<string, unknown> = {}): void => sink({ severity: 'ERROR', message, data }),
  warn: (message: string, data: Record<string, unknown> = {}): void => sink({ severity: 'WARNING', message, data }),
};

/** An error as a log field: its message, never a stack sent to a caller. */
export const errorText = (err: unknown): string => (err instanceof Error ? err.message : String(err));

/** Test hook: send entries to `capture` instead of where they went, until the returned function puts that back. */
export function captureLog(capture: (entry: LogEntry) => void): () => void {
  const previous = sink;
  sink = capture;
  return () => {
    sink = previous;
  };
}
