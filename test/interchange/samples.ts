import type { ExportMedia, ExportQuestion } from '../../functions/src/interchange/exportModel';

// Questions of every type with every field, written for the exporters' tests.

const base = {
  tolerance: null,
  max_words: null,
  marks: 2,
  difficulty: 'hard' as const,
  category: ['Science', 'Physics/Optics'],
};

export const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);
export const OGG = new Uint8Array([0x4f, 0x67, 0x67, 0x53, 9, 9]);

export const media: ExportMedia = new Map([
  ['img1', { name: 'lens.png', content_type: 'image/png', bytes: PNG }],
  ['img2', { name: 'lens.png', content_type: 'image/png', bytes: new Uint8Array([7, 7]) }],
  ['snd1', { name: 'tone.ogg', content_type: 'audio/ogg', bytes: OGG }],
]);

export const choice: ExportQuestion = {
  ...base,
  id: 'mc1',
  question_type: 'multiple_choice',
  title: 'Focal: length',
  text_format: 'html',
  question_text:
    '<p>Which lens {converges} = ~#\\ light?</p><p><img src="/api/media/img1" alt="a lens"><img src="/api/media/img2"></p>',
  options: ['Convex', 'Concave', '%50 of both', '[html]<b>neither</b>'],
  correct_answer: 'Convex',
  feedback: 'See <i>chapter 3</i>: <img src="/api/media/img1">',
  option_feedback: ['Right: it bends light inwards', 'No: it spreads light', '', 'No'],
};

export const multi: ExportQuestion = {
  ...base,
  id: 'ms1',
  question_type: 'multiple_select',
  question_text: 'Which are primes?\nPick all.',
  options: ['2', '3', '4', '9'],
  correct_answer: '2|3',
  option_credits: [50, 50, -33, -100],
  option_feedback: ['yes', 'yes', 'even', 'square'],
  feedback: 'Primes have two divisors.',
};

export const multiAllOrNothing: ExportQuestion = {
  ...base,
  id: 'ms2',
  question_type: 'multiple_select',
  question_text: 'Pick the vowels',
  options: ['a', 'b', 'e'],
  correct_answer: 'a|e',
  category: null,
};

export const trueFalse: ExportQuestion = {
  ...base,
  id: 'tf1',
  question_type: 'true_false',
  question_text: 'Light travels faster than sound.',
  options: ['True', 'False'],
  correct_answer: 'True',
  option_feedback: ['Yes, much faster', 'It is faster'],
  feedback: 'About 300,000 km/s against 343 m/s.',
  difficulty: 'easy',
};

export const shortAnswer: ExportQuestion = {
  ...base,
  id: 'sa1',
  question_type: 'short_answer',
  title: 'Capital',
  question_text: 'The capital of France?',
  options: [],
  correct_answer: 'Paris',
  alternatives: [
    { answer: 'Paris, France', credit: 100 },
    { answer: 'Lutèce', credit: 33 },
  ],
  case_sensitive: true,
  feedback: 'Paris it is.',
  difficulty: 'medium',
};

export const numeric: ExportQuestion = {
  ...base,
  id: 'nu1',
  question_type: 'numeric',
  question_text: 'The speed of light, in km/s?',
  options: [],
  correct_answer: '3e5',
  tolerance: 1000,
  alternatives: [{ answer: '300', credit: 50, tolerance: 1 }],
  feedback: 'About 299,792 km/s.',
  marks: 1.5,
};

export const numericExact: ExportQuestion = {
  ...base,
  id: 'nu2',
  question_type: 'numeric',
  question_text: 'Half of one?',
  options: [],
  correct_answer: '.5',
  tolerance: null,
};

export const essay: ExportQuestion = {
  ...base,
  id: 'es1',
  question_type: 'essay',
  question_text: 'Describe a <b>rainbow</b> <audio controls><source src="/api/media/snd1"></audio>',
  text_format: 'html',
  options: [],
  correct_answer: '',
  max_words: 250,
  feedback: 'Refraction, then reflection.',
  category: ['Essays'],
};

export const ALL: ExportQuestion[] = [
  choice,
  multi,
  multiAllOrNothing,
  trueFalse,
  shortAnswer,
  numeric,
  numericExact,
  essay,
];
