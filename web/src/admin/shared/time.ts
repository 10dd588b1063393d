/**
 * An ISO 8601 instant as the value of a datetime-local input (the browser's local time), or ''.
 * With its seconds: an input with step="1" shows them, so an instant the API set to the second
 * is shown, and saved back, as it is.
 */
export function toLocalInput(iso: string | null | undefined): string {
  if (!iso) return '';
  const d = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

/** A datetime-local input's value (local time) as ISO 8601 UTC, or null when empty. */
export const fromLocalInput = (value: string): string | null => (value ? new Date(value).toISOString() : null);
