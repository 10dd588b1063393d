import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { adminDb } from '../support/admin';
import { BASE_URL, PROJECT_ID } from '../support/env';

// The seed `npm start` runs, against the test emulators (a demo- project too).
const run = promisify(execFile);
const seed = () =>
  run(process.execPath, ['--input-type=module', '-e', `
    const { seedDemo } = await import(${JSON.stringify(join(__dirname, '..', '..', 'scripts', 'seed.mjs'))});
    const result = await seedDemo({ projectId: ${JSON.stringify(PROJECT_ID)}, baseUrl: ${JSON.stringify(BASE_URL)} });
    console.log(JSON.stringify(result.tests));
  `], { env: process.env });

describe('the demo seed (npm start)', function () {
  this.timeout(120_000);

  it('seeds a published test with shuffle and review on, questions of every type in a folder, and a usable share code', async () => {
    const [test] = JSON.parse((await seed()).stdout);
    const stored = (await adminDb.collection('clients').doc('demo-academy').collection('tests').doc(test.id).get()).data()!;
    assert.equal(stored.status, 'published');
    assert.equal(stored.shuffle, 1);
    assert.equal(stored.allow_review, 1);
    assert.ok(stored.question_ids.length >= 8, `${stored.question_ids.length} questions`);
    const questions = await adminDb.getAll(...stored.question_ids.map((id: string) => adminDb.collection('clients').doc('demo-academy').collection('questions').doc(id)));
    const types = new Set(questions.map((q) => q.get('question_type')));
    assert.deepEqual([...types].sort(), ['multiple_choice', 'multiple_select', 'numeric', 'short_answer', 'true_false']);
    assert.ok(questions.every((q) => q.get('folder_id') === test.folder));
    const code = (await adminDb.collection('share_codes').doc(test.share_code).get()).data()!;
    assert.equal(code.test_id, test.id);
    assert.equal(code.client_id, 'demo-academy');
  });

  it('is idempotent: a second run finds the same test, questions and share code and adds nothing', async () => {
    const [first] = JSON.parse((await seed()).stdout);
    const questionsBefore = (await adminDb.collection('clients').doc('demo-academy').collection('questions').count().get()).data().count;
    const [second] = JSON.parse((await seed()).stdout);
    assert.deepEqual(second, first);
    const questionsAfter = (await adminDb.collection('clients').doc('demo-academy').collection('questions').count().get()).data().count;
    assert.equal(questionsAfter, questionsBefore);
  });
});
