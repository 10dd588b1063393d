import { optionsAsStored } from '../answers';
import type { QuestionTypeModule } from '../module';
import { DescriptionInput, normalizeDescription } from './schema';

// Text and media with no answer and no marks (instructions, a reading passage). It counts toward no
// total, takes no answer (a save for it is refused), and has nothing to score, count or regrade.

export const description: QuestionTypeModule<'description', typeof DescriptionInput> = {
  name: 'description',
  input: DescriptionInput,
  options: 'none',
  extras: [],
  ownFields: [],
  numericKey: false,
  normalize: normalizeDescription,
  normalizeExtras: () => ({}),
  // It has no key at all: nothing to send back.
  derivesKey: true,
  inputWithKey: (input) => input,
  marking: 'none',
  mark: () => ({ share: 0 }),
  answerProblem: () => 'A description takes no answer',
  answerParts: () => [],
  partLabels: () => null,
  partOutcomes: () => null,
  shownKey: () => null,
  takerView: optionsAsStored,
  htmlOptions: null,
  keyFields: [],
  regradeRefusal: {
    message: 'A description has no answer and no marks: there is nothing to regrade',
    detail: 'A description',
  },
};
