// Aiken read with the question type it holds (a single-answer choice): the format's own syntax is
// interchange/aiken/'s, what its questions become is the type's.
export { parseAiken } from '../../interchange';
