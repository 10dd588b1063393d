import { OneChoice } from '../choices';
import type { TakerInputProps } from '../module';
import { NumberInput } from '../numeric/numberInput';

// Loaded only when a test holds the type (its module's loader), with the attempt. The text above it
// is the service's, its values already written in: the answer is a number, typed as a numeric's is,
// or, for a question with choices, one of the values the service shows (in the attempt's order).
export const TakerInput = (props: TakerInputProps) =>
  props.question.options.length > 0 ? <OneChoice {...props} /> : <NumberInput {...props} />;
