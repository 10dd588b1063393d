import { z } from 'zod';
import { QuestionId } from '../../exams';
import { AttemptId } from '../schemas';

// Request and reply shapes of a taker's files attached to an essay.

export const AttachmentsParams = z.strictObject({ attemptId: AttemptId, questionId: QuestionId });

export const AttachmentParams = z.strictObject({
  attemptId: AttemptId,
  questionId: QuestionId,
  attachmentId: z.string().min(1).max(64).describe('The id the upload answered'),
});
