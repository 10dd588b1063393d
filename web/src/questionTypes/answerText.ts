// Pure: how the types whose answer is one text read it back in the review.

/** The one option an answer of a single-answer type chose (none of its options when it is typed). */
export const oneChoice = (answer: string): string[] => [answer];

/** An answer or a key shown as it is stored. */
export const asStored = (answer: string): string => answer;
