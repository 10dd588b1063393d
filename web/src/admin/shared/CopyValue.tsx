import { useState } from 'react';

/** What the last copy did: nothing yet, or the value copied, or the value the clipboard refused. */
type CopyState = { outcome: 'idle' } | { outcome: 'copied' | 'failed'; value: string };

/** Copies a value to the clipboard and remembers how it went, for the page to say so. */
export function useCopy() {
  const [state, setState] = useState<CopyState>({ outcome: 'idle' });
  const copy = (value: string) =>
    navigator.clipboard.writeText(value).then(
      () => setState({ outcome: 'copied', value }),
      () => setState({ outcome: 'failed', value }),
    );
  return { state, copy };
}

/** Said when the browser refuses the clipboard (no permission, not a secure page). */
export const COPY_FAILED = 'Could not copy: select the text and copy it.';

/** A value to paste elsewhere, with a button that copies it and says so. */
export function CopyValue({ value, label, testId }: { value: string; label: string; testId?: string }) {
  const { state, copy } = useCopy();
  return (
    <span className="copy-value">
      <code data-testid={testId}>{value}</code>{' '}
      <button type="button" className="secondary" onClick={() => void copy(value)}>
        Copy<span className="sr-only"> {label}</span>
      </button>{' '}
      <span role="status">
        {state.outcome === 'copied' ? 'Copied.' : state.outcome === 'failed' ? COPY_FAILED : ''}
      </span>
    </span>
  );
}
