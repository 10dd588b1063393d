import { useState } from 'react';
import type { Api } from '../../api';
import { inviteClass, type InvitationBatch } from '../../invitationApi';
import { useSession } from '../../session';
import { ErrorMessage, plural, useAction } from '../../ui';
import { saveFile } from '../questions/ExportControl';
import { invitationRowsCsv } from './invitationSheet';

/** The class page's action: the class's members who cannot sign in yet. */
export const ClassInvitations = ({
  classId,
  className,
  cannotSignIn,
}: {
  classId: string;
  className: string;
  cannotSignIn: number;
}) => <InvitationsAction issue={(api) => inviteClass(api, classId)} group={className} cannotSignIn={cannotSignIn} />;

/**
 * "Invitations for students who cannot sign in yet": new links for them (each revokes that
 * student's previous link), then the CSV and the printable sheet of those links.
 */
export function InvitationsAction({
  issue,
  group,
  cannotSignIn,
}: {
  /** The request that makes the links (the class's, or the listed students'). */
  issue: (api: Api) => Promise<InvitationBatch>;
  /** What the slips name as the class (the class's name, or the organization's page). */
  group: string;
  cannotSignIn: number;
}) {
  const { api } = useSession();
  const action = useAction();
  const [batch, setBatch] = useState<InvitationBatch | null>(null);
  const make = () =>
    action.run(async () => {
      setBatch(await issue(api));
    });
  return (
    <div className="row" data-testid="invitations-action">
      <button type="button" onClick={() => void make()} disabled={action.busy || cannotSignIn === 0}>
        Invitations for students who cannot sign in yet
      </button>
      {batch && (
        <>
          <span role="status">
            {plural(batch.rows.length, 'new link')} (older links of these students stop working).
          </span>
          <button
            type="button"
            className="secondary"
            onClick={() =>
              saveFile(
                new Blob([invitationRowsCsv(batch.rows, group)], { type: 'text/csv;charset=utf-8' }),
                'invitations.csv',
              )
            }
          >
            Download the links (CSV)
          </button>
          <button type="button" className="secondary" onClick={() => window.print()}>
            Printable sheet
          </button>
        </>
      )}
      <ErrorMessage error={action.error} />
      {batch && batch.rows.length > 0 && (
        // The sheet the print stylesheet keeps alone on the page (styles.css: .invitation-sheet).
        <div className="invitation-sheet" aria-label="Invitation slips" role="region">
          {batch.rows.map((r) => (
            <section className="slip" key={r.uid}>
              <h3>{r.name ?? r.email}</h3>
              <p>
                Class: {group} · {r.email}
              </p>
              <p>Open this link to choose your password (it works once):</p>
              <p className="slip-link">{r.link}</p>
              <p>Valid until {new Date(r.expires_at).toLocaleDateString()}</p>
            </section>
          ))}
        </div>
      )}
    </div>
  );
}
