import type { Principal } from '../auth/principal';
import type { Reply } from '../http/route';

// STUB: the results export (written by a helper).
export async function resultsCsv(_principal: Principal, _testId: string, _version: number | undefined): Promise<NonNullable<Reply['stream']>> {
  throw new Error('not yet');
}
