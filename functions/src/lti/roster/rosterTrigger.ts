import { onDocumentWritten } from 'firebase-functions/v2/firestore';
import { errorText, log } from '../../platform';
import type { StoredLtiContext } from '../documents';
import { MAX_ROSTER_TRIES, syncWanted } from './memberships';

// The course roster is read from a Firestore trigger on the course's document:
// the launch that makes the course answers at once, and the sync runs beside it,
// durably (the trigger fires for a write that committed; `retry` runs a failed
// run again with backoff, and the lease on the document keeps runs one at a time).

export const syncLtiRosterOnWrite = onDocumentWritten(
  {
    document: 'clients/{clientId}/lti_contexts/{contextKey}',
    region: 'us-central1',
    retry: true,
    timeoutSeconds: 300,
    memory: '512MiB',
  },
  async (event) => {
    const before = event.data?.before.data() as StoredLtiContext | undefined;
    const after = event.data?.after.data() as StoredLtiContext | undefined;
    if (!syncWanted(before, after)) return;
    const { clientId, contextKey } = event.params;
    // Loaded here, not with the module: every function's instance (the api's too) loads the trigger's definition.
    const { RosterPlatformFailure, syncRoster } = await import('./rosterSync');
    try {
      const result = await syncRoster(clientId, contextKey);
      if (result.status === 'given_up')
        log.warn('LTI roster sync given up', { clientId, contextKey, tries: MAX_ROSTER_TRIES });
    } catch (err) {
      // Thrown on, for the trigger's retry: the next run finds the course released (or given up after MAX_ROSTER_TRIES).
      const whose = err instanceof RosterPlatformFailure ? 'the platform failed' : 'our backend failed';
      log.warn(`LTI roster sync failed (${whose}); it is tried again`, { clientId, contextKey, error: errorText(err) });
      throw err;
    }
  },
);
