import { useEffect, useRef } from 'react';
import { serverNow } from '../api';
import { secondsLeft } from './countdown';

/** How often an open attempt reads its deadline again: a hall of 300 pages is 10 light reads a second. */
const REFRESH_MS = 30_000;
/** A hidden tab reads only this close to its deadline: that is when a missed extension would lock it. */
const NEAR_DEADLINE_S = 120;

/** 0.75 to 1.25 periods, so a hall of pages opened together does not read together. */
const jittered = (period: number) => period * (0.75 + Math.random() * 0.5);

/**
 * Keeps an open attempt's deadline current without a reload: an admin's extra time,
 * or a closing time moved, reaches the page from `refresh` (a GET of the attempt)
 * every 30 s or so while the tab is shown, and once more a few seconds before 0:00.
 * A read that fails (offline) changes nothing: the page counts on from the deadline it
 * knows, locks no earlier than that, and its answers stay queued.
 */
export function useDeadlineWatch(expiresAt: string, refresh: () => Promise<void>): void {
  const deadline = useRef(expiresAt);
  deadline.current = expiresAt;
  const latest = useRef(refresh);
  latest.current = refresh;
  const read = useRef<() => Promise<void>>(async () => undefined);

  useEffect(() => {
    let inFlight = false;
    let lastRead = Date.now();
    read.current = async () => {
      if (inFlight) return;
      inFlight = true;
      try {
        await latest.current();
        lastRead = Date.now();
      } catch {
        // Offline or refused: keep the deadline known, and try again at the next turn.
      } finally {
        inFlight = false;
      }
    };
    let timer: ReturnType<typeof setTimeout>;
    const turn = async () => {
      if (!document.hidden || secondsLeft(deadline.current, serverNow()) <= NEAR_DEADLINE_S) await read.current();
      timer = setTimeout(() => void turn(), jittered(REFRESH_MS));
    };
    timer = setTimeout(() => void turn(), jittered(REFRESH_MS));
    // A tab shown again, or a network back, may have missed a change: read at once.
    const onShown = () => {
      if (!document.hidden && Date.now() - lastRead >= REFRESH_MS) void read.current();
    };
    const onOnline = () => void read.current();
    document.addEventListener('visibilitychange', onShown);
    window.addEventListener('online', onOnline);
    return () => {
      clearTimeout(timer);
      document.removeEventListener('visibilitychange', onShown);
      window.removeEventListener('online', onOnline);
      read.current = async () => undefined;
    };
  }, []);

  // The last read before locking, 3 to 10 s ahead of it: a hall sharing a closing time does not read at one instant.
  useEffect(() => {
    const wait = Date.parse(expiresAt) - serverNow() - 3_000 - Math.random() * 7_000;
    // Beyond setTimeout's range (24.8 days) the periodic reads are enough.
    if (!(wait > 0) || wait > 2 ** 31 - 1) return;
    const timer = setTimeout(() => void read.current(), wait);
    return () => clearTimeout(timer);
  }, [expiresAt]);
}
