import type { QuerySpec } from '../shared';

// Pure: the shape of a test's grading queue, oldest submission first.
export const gradingQueueSpec = (filters: { question_id?: string }): QuerySpec => ({
  collectionId: 'grading_queue',
  equals: { question_id: filters.question_id },
  orderBy: [{ field: 'submitted_at', direction: 'asc' }],
});
