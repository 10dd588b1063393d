import type { AuditMeta } from '../audit';

// What a user's deletion, or its leaving the student role, does to the classes it
// belongs to, asked of the classes feature (provided by app.ts): classes reads users'
// profiles, so users reaches for classes only through this hook.

/** Takes the student out of each of these classes (its member document, the class's count, an audit record); a class it is no longer in is skipped. */
export type LeaveClasses = (
  clientId: string,
  uid: string,
  classIds: readonly string[],
  audit: { meta: AuditMeta; actorId: string | null },
) => Promise<void>;

let provided: LeaveClasses | undefined;

export function provideLeaveClasses(leave: LeaveClasses): void {
  provided = leave;
}

export function leaveClasses(...args: Parameters<LeaveClasses>): Promise<void> {
  if (!provided) throw new Error('Leaving classes was not provided (app.ts provideEffects)');
  return provided(...args);
}
