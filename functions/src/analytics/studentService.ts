import type { Principal } from '../auth/principal';
import type { PageRequest } from '../shared/pagination';
import type { StudentAnalytics } from './schemas';

// STUB: a student's analytics (written by a helper).
export async function studentAnalytics(_principal: Principal, _studentId: string, _clientId: string | undefined, _page: PageRequest): Promise<StudentAnalytics> {
  throw new Error('not yet');
}
