import type { AuthorKeyProps, QuestionTypeModule } from '../module';
import { StoredAnswerReview } from '../review';
import { TypedKey } from '../typedKey';
import { TextLineInput } from '../typedAnswer';
import { shortAnswer } from './definition';

const AuthorKey = (props: AuthorKeyProps) => <TypedKey {...props} hint="Compared ignoring case and spacing" />;

export const shortAnswerModule: QuestionTypeModule = {
  ...shortAnswer,
  views: { TakerInput: TextLineInput, AuthorKey, Review: StoredAnswerReview },
};
