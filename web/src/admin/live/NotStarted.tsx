import { useEffect, useId, useRef, useState } from 'react';
import { Link } from 'react-router';
import { type Api, type Schemas, unwrap } from '../../api';
import { useSession } from '../../session';
import { ErrorMessage, Loading } from '../../ui';
import { personWithEmail } from '../people';

// The live view's other half: who of the test's audience has not started it yet
// (GET /api/tests/{testId}/not-started), following the class filter, refreshed with
// the attempts. A page of the API reads PAGE_SIZE students of the audience and lists
// those who have not started, so it can hold few, or none, and still lead on.

const PAGE_SIZE = 50;
/** Pages one load reads on past its first while they list nobody (everyone they read had started). */
const MAX_EMPTY_PAGES = 4;

type Student = Schemas['NotStartedStudent'];
interface Loaded {
  students: Student[];
  next: string | null;
  /** The API pages read so far: a refresh reads as many again, from the start. */
  pages: number;
}

/** Reads `pages` pages from `cursor` on (then on while they list nobody), to the end at most. */
async function walk(api: Api, testId: string, classId: string, cursor: string | null, pages: number): Promise<Loaded> {
  const students: Student[] = [];
  let next = cursor;
  let read = 0;
  do {
    const page = await unwrap(
      api.GET('/api/tests/{testId}/not-started', {
        params: {
          path: { testId },
          // '' (everyone) is left out of the address: openapi-fetch drops undefined.
          query: { limit: PAGE_SIZE, class_id: classId || undefined, cursor: next ?? undefined },
        },
      }),
    );
    students.push(...page.data);
    next = page.next_cursor;
    read += 1;
  } while (next && (read < pages || (students.length === 0 && read < pages + MAX_EMPTY_PAGES)));
  return { students, next, pages: read };
}

/** "Not started (N)": the names (and emails) of those still to start, with Load more for the next page. */
export function NotStarted({ testId, classId, refresh }: { testId: string; classId: string; refresh: number }) {
  const { api } = useSession();
  const listId = useId();
  const [open, setOpen] = useState(true);
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  // Only the latest load lands: a refresh overtakes a slower one.
  const latest = useRef(0);
  const shown = useRef<{ classId: string; pages: number }>({ classId, pages: 1 });

  const land = (load: number, next: Loaded) => {
    if (load !== latest.current) return;
    shown.current = { classId, pages: next.pages };
    setLoaded(next);
    setError(null);
  };
  const fail = (load: number, err: unknown) => {
    if (load === latest.current) setError(err);
  };

  useEffect(() => {
    // Another class: its first page; the same one again: as many pages as are shown.
    const pages = shown.current.classId === classId ? shown.current.pages : 1;
    if (shown.current.classId !== classId) {
      shown.current = { classId, pages: 1 };
      setLoaded(null);
    }
    const load = ++latest.current;
    walk(api, testId, classId, null, pages).then(
      (next) => {
        if (load !== latest.current) return;
        shown.current = { classId, pages: next.pages };
        setLoaded(next);
        setError(null);
      },
      (err: unknown) => {
        if (load === latest.current) setError(err);
      },
    );
  }, [api, testId, classId, refresh]);

  const loadMore = () => {
    if (!loaded?.next) return;
    const load = ++latest.current;
    setBusy(true);
    walk(api, testId, classId, loaded.next, 1)
      .then(
        (more) =>
          land(load, {
            students: [...loaded.students, ...more.students],
            next: more.next,
            pages: loaded.pages + more.pages,
          }),
        (err: unknown) => fail(load, err),
      )
      .finally(() => setBusy(false));
  };

  const students = loaded?.students ?? [];
  const count = loaded ? `${students.length}${loaded.next ? '+' : ''}` : '…';
  return (
    <section className="card not-started" aria-labelledby={`${listId}-heading`}>
      <div className="row">
        <h2 id={`${listId}-heading`}>Not started ({count})</h2>
        <button
          type="button"
          className="secondary"
          aria-expanded={open}
          aria-controls={listId}
          onClick={() => setOpen((o) => !o)}
        >
          {open ? 'Hide' : 'Show'}
          <span className="sr-only"> who has not started</span>
        </button>
      </div>
      <ErrorMessage error={error} />
      <div id={listId}>
        {open &&
          (!loaded ? (
            <Loading what="Loading who has not started" />
          ) : (
            <>
              {students.length === 0 && (
                <p>
                  {loaded.next
                    ? 'Nobody so far: load more to read on.'
                    : classId
                      ? 'Nobody of this class is still to start.'
                      : 'Nobody is still to start.'}
                </p>
              )}
              {students.length > 0 && (
                <ul className="not-started-list" aria-label="Students who have not started">
                  {students.map((s) => (
                    <li key={s.uid}>
                      <Link to={`/admin/students/${encodeURIComponent(s.uid)}`}>
                        {personWithEmail({ name: s.display_name, email: s.email, uid: s.uid })}
                      </Link>
                      {s.candidate_number && <span> · candidate {s.candidate_number}</span>}
                    </li>
                  ))}
                </ul>
              )}
              {loaded.next && (
                <button type="button" className="secondary" disabled={busy} onClick={loadMore}>
                  Load more<span className="sr-only"> of who has not started</span>
                </button>
              )}
            </>
          ))}
      </div>
    </section>
  );
}
