import { trueFalse } from '../../../functions/src/questionTypes/trueFalse/module';
import { assertMarking } from '../cases';

// Pure: a true/false question's marking, as a table.

describe('questionTypes/trueFalse mark', () => {
  assertMarking(trueFalse, { options: ['True', 'False'], correct_answer: 'False' }, [
    ['the key earns the marks', {}, 'False', 1],
    ['in any case and spacing', {}, ' fALSE ', 1],
    ['the other is wrong', {}, 'True', 'wrong'],
    ['anything else is wrong', {}, 'no', 'wrong'],
    ['true as the key', { correct_answer: 'True' }, 'true', 1],
  ]);
});
