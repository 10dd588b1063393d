import type { Role } from '../auth/principal';
import type { User } from './schemas';

// Pure: the profile document a new account gets (the service and the test fixtures both use it).
export function newProfile(
  account: { uid: string; email: string; display_name: string; role: Role; client_id: string | null },
  now: string,
): User {
  return { ...account, disabled: false, created_at: now, updated_at: now };
}
