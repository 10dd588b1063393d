// An instant as a place's wall clock, for files people read (the results export).
// Intl's option words (numeric, 2-digit) live here, apart from the features.

const zoneFormats = new Map<string, Intl.DateTimeFormat>();
/** `iso` as the organization's wall clock, `2026-03-02 09:14:05` (the zone is in the column's header); empty when absent or unreadable. */
export function localTime(iso: string | null | undefined, timeZone: string): string {
  if (!iso) return '';
  const at = Date.parse(iso);
  if (!Number.isFinite(at)) return '';
  let format = zoneFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-CA', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    });
    zoneFormats.set(timeZone, format);
  }
  const part = Object.fromEntries(format.formatToParts(at).map((p) => [p.type, p.value]));
  return `${part.year}-${part.month}-${part.day} ${part.hour}:${part.minute}:${part.second}`;
}
