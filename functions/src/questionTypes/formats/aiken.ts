import { readAiken, type AikenType, type ParsedBank } from '../../interchange';
import { multipleChoice } from '../multipleChoice/module';
import { multipleChoiceAiken } from '../multipleChoice/aiken';

// Aiken read with the question type it holds (a single-answer choice): the format's own syntax is
// interchange/aiken/'s, what its questions become is the type's.

const AIKEN_TYPE: AikenType = { name: multipleChoice.name, ...multipleChoiceAiken };

export const parseAiken = (text: string): ParsedBank => readAiken(text, AIKEN_TYPE);
