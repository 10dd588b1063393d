import type { Role } from '../auth';
import type { StoredProfile } from './documents';
import { searchKeysOf } from './searchKeys';

// Pure: the profile document a new account gets (the service and the test fixtures both use it).
export function newProfile(
  account: { uid: string; email: string; display_name: string; role: Role; client_id: string | null },
  now: string,
): StoredProfile & Required<Pick<StoredProfile, 'email_lower' | 'name_lower'>> {
  return { ...account, disabled: false, created_at: now, updated_at: now, ...searchKeysOf(account) };
}
