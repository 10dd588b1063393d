import type { QuestionTypeModule } from '../module';
import { description } from './definition';

// A description is shown as its text alone (QuestionView, the review): no input, no key, no answer.

const Nothing = () => null;

const AuthorKey = () => (
  <p className="hint">A description has no answer and no marks: takers read its text (and media) and answer nothing.</p>
);

export const descriptionModule: QuestionTypeModule = {
  ...description,
  views: { TakerInput: Nothing, AuthorKey, Review: Nothing },
};
