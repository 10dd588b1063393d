import { questionTypeOf } from '../questionTypes';

// Pure: which question may be a passage (a text shown beside the questions that name it) and
// when a passage may stop being one. A passage is a question with no answer and no marks (a
// description); its questions name it by passage_id, within one organization.

/** A question as far as being a passage goes. */
export interface PassageCandidate {
  id: string;
  question_type: string;
}

/** Whether a question of this type is a passage: it asks nothing (no answer, no marks). */
export const isPassageType = (questionType: string): boolean => questionTypeOf(questionType).marking === 'none';

/**
 * Why `passage` (the organization's question by the id named, undefined when it has none by that id)
 * cannot be the passage of question `questionId`, or undefined when it can. Another organization's
 * question is one this organization does not have: the reply never tells the two apart.
 */
export function passageRefusal(
  passage: PassageCandidate | undefined,
  questionId: string | undefined,
): string | undefined {
  if (!passage) return 'Names no question of this organization';
  if (passage.id === questionId) return 'A question cannot be its own passage';
  if (!isPassageType(passage.question_type))
    return `Must name a description (a text with no answer and no marks); it names a ${passage.question_type} question`;
  return undefined;
}

/**
 * Why a passage cannot be deleted, or made a question that asks something, while `namedBy` (some of
 * the questions naming it) still name it: undefined when none does. Detaching them silently would
 * change questions the author did not touch, so the author detaches or deletes them first.
 */
export function namedPassageRefusal(namedBy: readonly string[], action: 'delete' | 'retype'): string | undefined {
  if (namedBy.length === 0) return undefined;
  const which = `${namedBy.slice(0, 3).join(', ')}${namedBy.length > 3 ? ', …' : ''}`;
  const what = action === 'delete' ? 'deleted' : 'made a question that asks something';
  return `This description is the passage of other questions (${which}): it cannot be ${what} until they name another passage or none (passage_id null)`;
}
