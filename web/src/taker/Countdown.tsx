import { useEffect, useRef, useState } from 'react';
import { serverNow } from '../api';
import { describeLeft, formatClock, markCrossed, secondsLeft } from './countdown';

/**
 * Counts down from the service's expires_at on the service's clock (the Date
 * header's offset), and announces the time left at set marks, not every second,
 * and when `expiresAt` moves.
 */
export function Countdown({ expiresAt, onTimeUp }: { expiresAt: string; onTimeUp: () => void }) {
  const [left, setLeft] = useState(() => secondsLeft(expiresAt, serverNow()));
  const [announcement, setAnnouncement] = useState('');
  const previous = useRef(left);
  const timeUp = useRef(onTimeUp);
  timeUp.current = onTimeUp;
  const shownFor = useRef(expiresAt);
  useEffect(() => {
    // A deadline moved while the page is open (extra time, a closing time moved) is said at once.
    const moved = shownFor.current !== expiresAt;
    shownFor.current = expiresAt;
    const tick = () => {
      const now = secondsLeft(expiresAt, serverNow());
      const mark = markCrossed(previous.current, now);
      if (mark !== undefined) setAnnouncement(describeLeft(now));
      if (now === 0 && previous.current > 0) timeUp.current();
      previous.current = now;
      setLeft(now);
    };
    tick();
    if (moved) setAnnouncement(`The end time changed: ${describeLeft(previous.current)}`);
    const id = setInterval(tick, 1000);
    return () => clearInterval(id);
  }, [expiresAt]);
  useEffect(() => {
    if (left === 0) timeUp.current();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  return (
    <div className={`countdown${left <= 60 ? ' countdown-low' : ''}`}>
      <span role="timer" aria-label={`Time left: ${describeLeft(left)}`} data-seconds-left={left}>
        {formatClock(left)}
      </span>
      <span className="sr-only" aria-live="assertive">
        {announcement}
      </span>
    </div>
  );
}
