import type { QuerySpec } from '../shared';
import type { QuestionFilters } from './schemas';

// Pure: the shape of the question listing, newest first (the document id breaks ties).
export const questionQuerySpec = (filters: QuestionFilters): QuerySpec => ({
  collectionId: 'questions',
  equals: { folder_id: filters.folder_id, difficulty: filters.difficulty, question_type: filters.question_type },
  orderBy: [{ field: 'created_at', direction: 'desc' }],
});
