import { characterLimit, choiceSet, SHORT_KEYED, WRONG } from '../answers';
import { OPTION_SEPARATOR } from '../fields';
import type { KeyedQuestion, Marking, QuestionTypeModule } from '../module';
import { HottextInput, hottextExtras, normalizeHottext } from './schema';

// Phrases marked in the text, some of them right. The answer is the chosen phrases joined by "|", as a
// multiple_select's is. Exactly the right set earns the marks; otherwise (right chosen − wrong chosen)
// ÷ right phrases, at least 0; an answer earning nothing is wrong (negative marking charges it).

function mark(question: KeyedQuestion, answer: string): Marking {
  const key = choiceSet(question.correct_answer);
  const chosen = choiceSet(answer);
  let right = 0;
  for (const phrase of chosen) if (key.has(phrase)) right++;
  const wrong = chosen.size - right;
  if (wrong === 0 && right === key.size) return { share: 1 };
  const share = Math.max(0, right - wrong) / key.size;
  return share > 0 ? { share } : WRONG;
}

export const hottext: QuestionTypeModule<'hottext', typeof HottextInput> = {
  name: 'hottext',
  input: HottextInput,
  ...SHORT_KEYED,
  options: 'none',
  extras: ['max_choices'],
  normalize: normalizeHottext,
  normalizeExtras: hottextExtras,
  mark,
  answerProblem: (answer, question, maxLength) => {
    const chosen = choiceSet(answer).size;
    const most = question.max_choices ?? null;
    return most !== null && chosen > most
      ? `This question takes at most ${most} phrases; the answer chooses ${chosen}`
      : characterLimit(answer, question, maxLength * 5);
  },
  answerParts: (answer) => answer.split(OPTION_SEPARATOR),
  takerView: (question) => ({ options: [...question.options], max_choices: question.max_choices ?? null }),
  htmlOptions: null,
  keyFields: ['correct_answer', 'marks'],
};
