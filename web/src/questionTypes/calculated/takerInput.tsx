// Loaded only when a test holds the type (its module's loader), with the attempt. The text above it
// is the service's, its values already written in: the answer is a number, typed as a numeric's is.
export { NumberInput as TakerInput } from '../numeric/numberInput';
