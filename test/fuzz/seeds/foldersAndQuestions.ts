import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { StoredQuestion } from '../../../functions/src/questions/documents';
import { adminDb } from '../../support/admin';
import type { FuzzSeedGroup, FuzzWorld } from './types';

// Seeds for folders, the question bank and the CSV import, all as the tenant's
// Client Admin. Documents are written straight into Firestore in the shapes the
// service stores; later runs may meet 404 (deleted) or 409 (already imported).

interface Prepared {
  folderId: string;
  questionIds: string[];
}

const EXAMPLE_CSV = readFileSync(join(__dirname, '..', '..', '..', 'examples', 'questions.csv'), 'utf8');
const BANK_FILES = [
  { field: 'file', filename: 'questions.csv', contentType: 'text/csv', content: EXAMPLE_CSV },
  {
    field: 'file',
    filename: 'bank.gift',
    contentType: 'text/plain',
    content: '$CATEGORY: Fuzz\n::One:: 1+1? {=2 ~3}\n\n::Two:: Sun is a star {T}\n',
  },
  {
    field: 'file',
    filename: 'bank.xml',
    contentType: 'application/xml',
    content:
      '<?xml version="1.0"?><quiz><question type="shortanswer"><name><text>S</text></name>' +
      '<questiontext format="html"><text>Capital of France?</text></questiontext>' +
      '<answer fraction="100"><text>Paris</text></answer></question></quiz>',
  },
];
let importRuns = 0;

async function prepare(world: FuzzWorld): Promise<Prepared> {
  const clientId = world.tenant.clientId;
  const client = adminDb.collection('clients').doc(clientId);
  const now = new Date().toISOString();
  const folderId = randomUUID();
  const name = `Fuzz folder ${folderId.slice(0, 8)}`;
  await client.collection('folders').doc(folderId).set({ id: folderId, client_id: clientId, name, name_sort: name.toLowerCase(), created_at: now, updated_at: now });
  const questionIds: string[] = [];
  for (let n = 0; n < 6; n++) {
    const q: StoredQuestion = {
      id: randomUUID(), client_id: clientId, folder_id: null, question_text: `Fuzz question ${n}`, question_type: 'multiple_choice',
      options: ['A', 'B'], correct_answer: 'A', tolerance: null, max_words: null, marks: 1, difficulty: 'easy', created_at: now, updated_at: now,
    };
    await client.collection('questions').doc(q.id).set(q);
    questionIds.push(q.id);
  }
  return { folderId, questionIds };
}

const validQuestion = (folderId: string) => ({
  question_type: 'multiple_choice', question_text: 'Fuzzed?', options: ['Yes', 'No'], correct_answer: 'Yes', marks: 2, difficulty: 'medium', folder_id: folderId,
});

/** A valid question of every type, by the name of its shape in the document: each shape of the body is fuzzed from its own. */
const QUESTION_SHAPES: Record<string, (folderId: string) => Record<string, unknown>> = {
  MultipleChoiceQuestionInput: validQuestion,
  MultipleSelectQuestionInput: (folderId) => ({ ...validQuestion(folderId), question_type: 'multiple_select', options: ['2', '3', '4'], correct_answer: '2|3' }),
  TrueFalseQuestionInput: (folderId) => ({ ...validQuestion(folderId), question_type: 'true_false', options: ['True', 'False'], correct_answer: 'True' }),
  ShortAnswerQuestionInput: (folderId) => ({ ...validQuestion(folderId), question_type: 'short_answer', options: [], correct_answer: 'cat' }),
  NumericQuestionInput: (folderId) => ({ ...validQuestion(folderId), question_type: 'numeric', options: [], correct_answer: '3.14', tolerance: 0.01 }),
  EssayQuestionInput: (folderId) => ({ ...validQuestion(folderId), question_type: 'essay', options: [], correct_answer: '', max_words: 250 }),
  MatchingQuestionInput: (folderId) => ({
    question_type: 'matching', question_text: 'Match', marks: 2, difficulty: 'easy', folder_id: folderId,
    stems: ['France', 'Italy'], options: ['Paris', 'Rome', 'Oslo'], matches: ['Paris', 'Rome'],
  }),
  OrderingQuestionInput: (folderId) => ({
    question_type: 'ordering', question_text: 'Order', marks: 2, difficulty: 'easy', folder_id: folderId,
    options: ['one', 'two', 'three'], ordering_score: 'partial',
  }),
  GapFillQuestionInput: (folderId) => ({
    question_type: 'gap_fill', question_text: 'The [[1]] is [[2]] at [[3]].', marks: 3, difficulty: 'easy', folder_id: folderId,
    gaps: [
      { kind: 'drag', answers: [{ answer: 'sky', credit: 100 }] },
      { kind: 'select', options: ['blue', 'green'], answers: [{ answer: 'blue', credit: 100 }] },
      { kind: 'numeric', answers: [{ answer: '12', credit: 100, tolerance: 1 }], weight: 2 },
    ],
    drag_options: ['sky', 'sea'], drag_reusable: false,
  }),
  HottextQuestionInput: (folderId) => ({
    question_type: 'hottext', question_text: 'The [[cat]] [[sleeps]].', marks: 1, difficulty: 'easy', folder_id: folderId,
    correct_answer: 'sleeps', max_choices: 1,
  }),
  CalculatedQuestionInput: (folderId) => ({
    question_type: 'calculated', question_text: '{a} + {b}?', marks: 1, difficulty: 'easy', folder_id: folderId,
    variables: [{ name: 'a', min: 1, max: 9, decimals: 0 }, { name: 'b', min: 0, max: 1, decimals: 2 }],
    formula: 'a + b', tolerance: 0.01, tolerance_type: 'absolute',
  }),
  HotspotQuestionInput: (folderId) => ({
    question_type: 'hotspot', question_text: 'Click', marks: 1, difficulty: 'easy', folder_id: folderId,
    image: { src: '/api/media/x.y', width: 100, height: 100, alt: 'a square' },
    areas: [{ shape: 'circle', coords: [50, 50, 10], correct: true, label: 'centre' }], select: 'points', max_points: 2,
  }),
  DescriptionQuestionInput: (folderId) => ({
    question_type: 'description', question_text: 'Read this.', marks: 0, difficulty: 'easy', folder_id: folderId,
  }),
};

export const seeds: FuzzSeedGroup = {
  prepare,
  seeds: [
    { operation: 'get /api/folders', request: (w) => ({ token: w.tenant.admin.token, query: { page: '1', limit: '10' } }) },
    { operation: 'post /api/folders', request: (w) => ({ token: w.tenant.admin.token, body: { name: `Fuzz ${randomUUID()}` } }) },
    {
      operation: 'patch /api/folders/{folderId}',
      request: (w, p: Prepared) => ({ token: w.tenant.admin.token, params: { folderId: p.folderId }, body: { name: `Renamed ${randomUUID()}` } }),
    },
    {
      operation: 'delete /api/folders/{folderId}',
      // A fresh id: 404 unless the fuzzer found something; the prepared folder is kept for the question seeds.
      request: (w) => ({ token: w.tenant.admin.token, params: { folderId: randomUUID() } }),
    },
    {
      operation: 'get /api/questions/export',
      request: (w, p: Prepared) => ({
        token: w.superAdmin.token,
        query: { format: 'moodle_xml', client_id: w.tenant.clientId, folder_id: p.folderId, difficulty: 'easy', question_type: 'multiple_choice' },
      }),
    },
    {
      operation: 'get /api/questions',
      request: (w, p: Prepared) => ({ token: w.tenant.admin.token, query: { folder_id: p.folderId, difficulty: 'easy', question_type: 'multiple_choice', limit: '5' } }),
    },
    ...Object.entries(QUESTION_SHAPES).map(([shape, body]) => ({
      operation: 'post /api/questions',
      shape,
      request: (w: FuzzWorld, p: Prepared) => ({ token: w.tenant.admin.token, body: body(p.folderId) }),
    })),
    {
      operation: 'get /api/questions/{questionId}',
      request: (w, p: Prepared) => ({ token: w.tenant.admin.token, params: { questionId: p.questionIds[0] } }),
    },
    ...Object.entries(QUESTION_SHAPES).map(([shape, body]) => ({
      operation: 'put /api/questions/{questionId}',
      shape,
      request: (w: FuzzWorld, p: Prepared) => ({ token: w.tenant.admin.token, params: { questionId: p.questionIds[1] }, body: body(p.folderId) }),
    })),
    {
      operation: 'patch /api/questions/{questionId}',
      request: (w, p: Prepared) => ({ token: w.tenant.admin.token, params: { questionId: p.questionIds[2] }, body: { marks: 3, difficulty: 'hard' } }),
    },
    {
      operation: 'delete /api/questions/{questionId}',
      request: (w, p: Prepared) => ({ token: w.tenant.admin.token, params: { questionId: p.questionIds[3] } }),
    },
    {
      operation: 'post /api/questions/import',
      // A dry run of a valid file, in each format in turn: valid every time, writes nothing.
      request: (w) => ({
        token: w.tenant.admin.token,
        query: { dry_run: 'true', mode: 'partial' },
        multipart: BANK_FILES[importRuns++ % BANK_FILES.length],
      }),
    },
  ],
};
