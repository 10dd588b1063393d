import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { useSession } from '../session';
import { ErrorMessage, plural, useAction } from '../ui';

/**
 * The way out of an attempt's page. A student goes back to its tests. A Guest has no
 * list of tests: its way out ends the guest session (its answers sent first, then
 * everything this browser kept for it removed), so the next person at this computer
 * finds the sign-in page signed out, not this Guest still signed in.
 */
export function BackToTests() {
  const { me, user, signOut } = useSession();
  const navigate = useNavigate();
  const action = useAction();
  const [unsent, setUnsent] = useState(0);
  if (!(me?.guest || user?.isAnonymous)) return <Link to="/">Back to your tests</Link>;
  const leave = () =>
    action.run(async () => {
      const left = await signOut();
      setUnsent(left);
      if (left === 0) navigate('/', { replace: true });
    });
  return (
    <div>
      <button type="button" onClick={() => void leave()} disabled={action.busy}>
        Finish and leave
      </button>{' '}
      <small>This ends your guest session on this computer.</small>
      {unsent > 0 && (
        <span className="warning" role="alert">
          {' '}
          {plural(unsent, 'answer is', 'answers are')} not saved on the server yet: reconnect and try again, or use Sign
          out above.
        </span>
      )}
      <ErrorMessage error={action.error} />
    </div>
  );
}
