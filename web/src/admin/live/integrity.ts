import type { Schemas } from '../../api';

type Summary = Schemas['IntegritySummary'];
type EventType = keyof Summary['counts'];

/** What each event type means to a proctor, in the words the live view shows. */
export const EVENT_LABELS: Record<EventType, string> = {
  focus_lost: 'left the test',
  focus_back: 'came back',
  paste: 'pasted',
  fullscreen_exit: 'left fullscreen',
  offline: 'went offline',
  online: 'back online',
  reload: 'reloaded the page',
};

/** A taker away from the test this long is highlighted. */
export const AWAY_ALERT_MS = 30_000;

/** The counts worth a proctor's glance, e.g. "left the test 3×, pasted 1×"; '' when nothing happened. */
export function countsText(summary: Summary): string {
  const shown: EventType[] = ['focus_lost', 'paste', 'fullscreen_exit', 'offline', 'reload'];
  return shown
    .filter((type) => summary.counts[type] > 0)
    .map((type) => `${EVENT_LABELS[type]} ${summary.counts[type]}×`)
    .join(', ');
}

/** How long the taker has been away from the test, when its last event says it left (ms), else undefined. */
export function awayFor(summary: Summary, now: number): number | undefined {
  const last = summary.last_event;
  if (!last || (last.type !== 'focus_lost' && last.type !== 'offline')) return undefined;
  return Math.max(0, now - Date.parse(last.at));
}

export function durationText(ms: number): string {
  const s = Math.floor(ms / 1000);
  return s < 60 ? `${s} s` : `${Math.floor(s / 60)} min ${String(s % 60).padStart(2, '0')} s`;
}
