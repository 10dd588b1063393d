import type { AuthorKeyProps, QuestionTypeModule, ReviewProps } from '../module';
import { KeyedReview } from '../review';
import { ToleranceField, TypedKey } from '../typedKey';
import { numeric } from './definition';
import { enteredNumber, NumberInput } from './numberInput';

const AuthorKey = (props: AuthorKeyProps) => (
  <>
    <TypedKey {...props} hint="A number, e.g. 3.14" />
    <ToleranceField {...props} hint="Accepted absolute difference; empty for exact" />
  </>
);

const Review = (props: ReviewProps) => <KeyedReview {...props} entered={enteredNumber} shown={numeric.shownAnswer} />;

export const numericModule: QuestionTypeModule = { ...numeric, views: { TakerInput: NumberInput, AuthorKey, Review } };
