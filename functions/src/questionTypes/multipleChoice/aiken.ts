import type { AikenType } from '../../interchange';

// What an Aiken question becomes: a multiple choice, its options as listed, the one ANSWER names the key.
export const multipleChoiceAiken: Pick<AikenType, 'choice'> = {
  choice: (options, answer) => ({ options, correct_answer: answer }),
};
