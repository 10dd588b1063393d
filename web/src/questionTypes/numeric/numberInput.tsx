import type { TakerInputProps } from '../module';
import { TypedLine } from '../typedAnswer';
import { NUMBER_CHECK, readNumberAnswer } from './numberAnswer';

/** A number typed on one line, the number pad (with its point or comma) on a phone. */
export const NumberInput = ({ name, label, value, onAnswer }: TakerInputProps) => (
  <TypedLine id={name} label={label} value={value} onAnswer={onAnswer} inputMode="decimal" check={NUMBER_CHECK} />
);

/** A number as the taker entered it, and how it was read when that differs ("1,41", read as 1.41). */
export function enteredNumber(answer: string) {
  const reading = readNumberAnswer(answer);
  return (
    <>
      {answer}
      {reading.kind === 'number' && reading.decimal !== answer.trim() ? ` (read as ${reading.decimal})` : ''}
      {reading.kind === 'ambiguous' || reading.kind === 'not_a_number' ? ' (not read as a number)' : ''}
    </>
  );
}
