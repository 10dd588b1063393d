import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { unwrap } from '../../api';
import { useSession } from '../../session';
import { ErrorMessage, formatTime, Loading, ScrollTable, useLoad } from '../../ui';
import { Pager } from '../shared';
import { useOrg } from '../org';
import { personName } from '../people';

const num = (n: number | null) => (n === null ? '—' : String(Number(n.toFixed(2))));
const pct = (n: number | null) => (n === null ? '—' : `${Number(n.toFixed(1))}%`);

/** A student's analytics: averages, best, and each submitted attempt (newest first). */
export function StudentPage() {
  const { studentId = '' } = useParams();
  const { api, me } = useSession();
  const { clientId } = useOrg();
  const [page, setPage] = useState(1);
  const clientParam = me?.role === 'super_admin' && clientId ? { client_id: clientId } : {};
  const student = useLoad(
    () =>
      unwrap(
        api.GET('/api/analytics/students/{studentId}', {
          params: { path: { studentId }, query: { page, limit: 20, ...clientParam } },
        }),
      ),
    [api, studentId, page, clientId],
  );
  // The heading names the student; without a readable profile, a short id.
  const profile = useLoad(
    () => unwrap(api.GET('/api/users/{uid}', { params: { path: { uid: studentId } } })).catch(() => null),
    [api, studentId],
  );
  const s = student.data;
  const p = profile.data;
  return (
    <>
      <h1 title={studentId}>{personName({ name: p?.display_name, email: p?.email, uid: studentId })}</h1>
      <ErrorMessage error={student.error} />
      {!s && student.loading && <Loading what="Loading the student’s results" />}
      {s && (
        <>
          <section aria-labelledby="summary" className="card">
            <h2 id="summary">Summary</h2>
            <dl className="figures">
              <div>
                <dt>Attempts</dt>
                <dd>{s.total_attempts}</dd>
              </div>
              <div>
                <dt>Submitted</dt>
                <dd>{s.completed}</dd>
              </div>
              <div>
                <dt>Awaiting grading</dt>
                <dd>{s.pending_grading}</dd>
              </div>
              <div>
                <dt>Average score</dt>
                <dd>{num(s.average_score)}</dd>
              </div>
              <div>
                <dt>Average percentage</dt>
                <dd>{pct(s.average_percentage)}</dd>
              </div>
              <div>
                <dt>Best percentage</dt>
                <dd>{pct(s.best_percentage)}</dd>
              </div>
            </dl>
            {s.pending_grading > 0 && (
              <p className="note">
                {s.pending_grading} submitted {s.pending_grading === 1 ? 'attempt has' : 'attempts have'} essays
                awaiting a grade: the averages and the best count {s.pending_grading === 1 ? 'it' : 'them'} once graded.
              </p>
            )}
          </section>
          <section aria-labelledby="attempts">
            <h2 id="attempts">Submitted attempts</h2>
            <ScrollTable label="Submitted attempts">
              <thead>
                <tr>
                  <th scope="col">Test</th>
                  <th scope="col">Version</th>
                  <th scope="col">Score</th>
                  <th scope="col">Percentage</th>
                  <th scope="col">Submitted</th>
                </tr>
              </thead>
              <tbody>
                {s.data.length === 0 && (
                  <tr>
                    <td colSpan={5}>No attempt is submitted yet.</td>
                  </tr>
                )}
                {s.data.map((r) => (
                  <tr key={r.attempt_id}>
                    <td>
                      <Link to={`/admin/tests/${encodeURIComponent(r.test_id)}/analytics`}>{r.test_name}</Link>
                    </td>
                    <td>{r.version}</td>
                    <td>
                      {num(r.score)} of {num(r.total_marks)}
                      {r.grading === 'pending' ? ` so far (${num(r.pending_marks)} awaiting grading)` : ''}
                    </td>
                    <td>{pct(r.percentage)}</td>
                    <td>
                      {formatTime(r.submitted_at)}
                      {r.auto_submitted ? ' (at the deadline)' : ''}
                    </td>
                  </tr>
                ))}
              </tbody>
            </ScrollTable>
            <Pager pagination={s.pagination} page={page} onPage={setPage} what="the student’s attempts" />
          </section>
        </>
      )}
    </>
  );
}
