import { useState } from 'react';
import { type Schemas, unwrap } from '../../api';
import { useSession } from '../../session';
import { ErrorMessage, Field, formatTime, Loading, ScrollTable, useAction, useLoad } from '../../ui';
import { personName } from '../people';
import { COPY_FAILED, fromLocalInput, useCopy } from '../shared';

/** Share codes of a published test: issue, copy, revoke. */
export function ShareCodes({ test }: { test: Schemas['Test'] }) {
  const { api } = useSession();
  const codes = useLoad(
    () =>
      unwrap(
        api.GET('/api/tests/{testId}/share-codes', { params: { path: { testId: test.id }, query: { limit: 100 } } }),
      ),
    [api, test.id],
  );
  const action = useAction();
  const [expiresAt, setExpiresAt] = useState('');
  const [maxUses, setMaxUses] = useState('');
  const [issued, setIssued] = useState<Schemas['ShareCode'] | null>(null);
  const clipboard = useCopy();

  const issue = () =>
    action.run(async () => {
      const expires = fromLocalInput(expiresAt);
      const code = await unwrap(
        api.POST('/api/tests/{testId}/share-codes', {
          params: { path: { testId: test.id } },
          body: { ...(expires ? { expires_at: expires } : {}), ...(maxUses ? { max_uses: Number(maxUses) } : {}) },
        }),
      );
      setIssued(code);
      codes.reload();
    });
  const revoke = (code: string) =>
    action.run(async () => {
      await unwrap(
        api.DELETE('/api/tests/{testId}/share-codes/{code}', { params: { path: { testId: test.id, code } } }),
      );
      if (issued?.code === code) setIssued(null);
      codes.reload();
    });

  return (
    <section className="card" aria-labelledby="codes-heading">
      <h2 id="codes-heading">Share codes</h2>
      {test.status !== 'published' ? (
        <p className="note">Share codes are issued for a published test.</p>
      ) : (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            void issue();
          }}
        >
          <div className="row">
            <Field label="Code expires at" hint="Empty: never">
              <input type="datetime-local" value={expiresAt} onChange={(e) => setExpiresAt(e.target.value)} />
            </Field>
            <Field label="Most uses" hint="Empty: unlimited">
              <input type="number" min="1" max="100000" value={maxUses} onChange={(e) => setMaxUses(e.target.value)} />
            </Field>
            <button type="submit" disabled={action.busy}>
              Issue a share code
            </button>
          </div>
        </form>
      )}
      {issued && (
        <p className="note" role="status">
          New share code: <strong data-testid="issued-code">{issued.code}</strong>{' '}
          <button type="button" className="secondary" onClick={() => void clipboard.copy(issued.code)}>
            Copy
          </button>
        </p>
      )}
      {clipboard.state.outcome === 'copied' && <p role="status">Copied {clipboard.state.value}.</p>}
      {clipboard.state.outcome === 'failed' && <p role="status">{COPY_FAILED}</p>}
      <ErrorMessage error={action.error ?? codes.error} />
      {codes.loading && !codes.data ? <Loading what="Loading the share codes" /> : null}
      {codes.data && codes.data.data.length > 0 && (
        <ScrollTable label="Codes issued">
          <thead>
            <tr>
              <th scope="col">Code</th>
              <th scope="col">Uses</th>
              <th scope="col">Expires</th>
              <th scope="col">Created</th>
              <th scope="col">Created by</th>
              <th scope="col">
                <span className="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {codes.data.data.map((c) => (
              <tr key={c.code}>
                <td>
                  <code>{c.code}</code>
                  {c.revoked ? ' (revoked)' : ''}
                </td>
                <td>
                  {c.uses}
                  {c.max_uses != null ? ` of ${c.max_uses}` : ''}
                </td>
                <td>{formatTime(c.expires_at)}</td>
                <td>{formatTime(c.created_at)}</td>
                <td>{personName({ name: c.created_by_name, email: c.created_by_email, uid: c.created_by })}</td>
                <td>
                  {!c.revoked && (
                    <span className="row">
                      <button
                        type="button"
                        className="secondary"
                        onClick={() => void clipboard.copy(c.code)}
                        aria-label={`Copy ${c.code}`}
                      >
                        Copy
                      </button>
                      <button
                        type="button"
                        className="danger"
                        onClick={() => void revoke(c.code)}
                        aria-label={`Revoke ${c.code}`}
                      >
                        Revoke
                      </button>
                    </span>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </ScrollTable>
      )}
    </section>
  );
}
