// Seeds Demo Academy's exam content through the API itself, as its Client
// Admin: a folder, questions of every type, a published test (shuffle and review
// on) and a share code. Going through the API means the demo is made by exactly
// the code that serves it: answer keys, frozen versions, seat shards and all.
//
// Idempotent by name: a second run finds the folder, the questions and the
// published test and only issues a share code if none is still usable.

export const DEMO_FOLDER = 'Demo Folder';
export const DEMO_TEST = 'Demo General Knowledge';

// Every question type; marks and difficulties vary so analytics have something to show.
export const DEMO_QUESTIONS = [
  { question_text: 'What is the capital of France?', question_type: 'multiple_choice', options: ['Paris', 'Berlin', 'Madrid', 'Rome'], correct_answer: 'Paris', marks: 2, difficulty: 'easy' },
  { question_text: 'Which planet is known as the Red Planet?', question_type: 'multiple_choice', options: ['Venus', 'Mars', 'Jupiter', 'Mercury'], correct_answer: 'Mars', marks: 2, difficulty: 'easy' },
  { question_text: 'Which of these numbers are prime?', question_type: 'multiple_select', options: ['2', '3', '4', '9', '11'], correct_answer: '2|3|11', marks: 3, difficulty: 'medium' },
  { question_text: 'Which of these are programming languages?', question_type: 'multiple_select', options: ['Python', 'HTML', 'Rust', 'CSS'], correct_answer: 'Python|Rust', marks: 2, difficulty: 'medium' },
  { question_text: 'The Earth orbits the Sun.', question_type: 'true_false', options: ['True', 'False'], correct_answer: 'True', marks: 1, difficulty: 'easy' },
  { question_text: 'Water boils at 50 °C at sea level.', question_type: 'true_false', options: ['True', 'False'], correct_answer: 'False', marks: 1, difficulty: 'easy' },
  { question_text: 'What is the chemical symbol for gold?', question_type: 'short_answer', correct_answer: 'Au', marks: 2, difficulty: 'medium' },
  { question_text: 'What is 7 × 8?', question_type: 'numeric', correct_answer: '56', marks: 2, difficulty: 'easy' },
  { question_text: 'What is π to two decimal places?', question_type: 'numeric', correct_answer: '3.14', tolerance: 0.005, marks: 3, difficulty: 'hard' },
];

async function signIn(authHost, email, password) {
  const res = await fetch(`http://${authHost}/identitytoolkit.googleapis.com/v1/accounts:signInWithPassword?key=demo-key`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ email, password, returnSecureToken: true }),
  });
  const json = await res.json();
  if (!res.ok) throw new Error(`signing in ${email} failed: ${JSON.stringify(json)}`);
  return json.idToken;
}

function apiClient(baseUrl, token) {
  return async (method, path, body, expected) => {
    const res = await fetch(`${baseUrl}${path}`, {
      method,
      headers: { Authorization: `Bearer ${token}`, ...(body ? { 'Content-Type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    const text = await res.text();
    if (res.status !== expected) throw new Error(`${method} ${path} answered ${res.status}, expected ${expected}: ${text}`);
    return text ? JSON.parse(text) : undefined;
  };
}

/** Every item of a list endpoint, following next_cursor. */
async function listAll(api, path) {
  const items = [];
  let cursor = null;
  do {
    const sep = path.includes('?') ? '&' : '?';
    const page = await api('GET', `${path}${sep}limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, undefined, 200);
    items.push(...page.data);
    cursor = page.pagination.next_cursor;
  } while (cursor);
  return items;
}

const usable = (code, now) => !code.revoked && (code.expires_at === null || Date.parse(code.expires_at) > now) && (code.max_uses === null || code.uses < code.max_uses);

/**
 * Seeds (or finds) the demo exam content of `clientId` through the API at
 * `baseUrl`, signed in as `admin`. Returns the demo test with its share code.
 */
export async function seedDemoExams({ baseUrl, authHost, admin }) {
  const api = apiClient(baseUrl, await signIn(authHost, admin.email, admin.password));

  const folders = await listAll(api, '/api/folders');
  const folder = folders.find((f) => f.name === DEMO_FOLDER) ?? (await api('POST', '/api/folders', { name: DEMO_FOLDER }, 201));

  const existing = await listAll(api, `/api/questions?folder_id=${encodeURIComponent(folder.id)}`);
  const questions = [];
  for (const wanted of DEMO_QUESTIONS) {
    const found = existing.find((q) => q.question_text === wanted.question_text);
    questions.push(found ?? (await api('POST', '/api/questions', { ...wanted, folder_id: folder.id }, 201)));
  }

  const published = await listAll(api, '/api/tests?status=published');
  let test = published.find((t) => t.test_name === DEMO_TEST);
  if (!test) {
    const drafts = await listAll(api, '/api/tests?status=draft');
    test =
      drafts.find((t) => t.test_name === DEMO_TEST) ??
      (await api(
        'POST',
        '/api/tests',
        {
          test_name: DEMO_TEST,
          description: 'A short quiz with one question of every kind. Wrong answers cost a quarter of their marks.',
          timer: 20,
          shuffle: 1,
          allow_review: 1,
          negative_marking: 1,
          status: 'draft',
          folder_id: folder.id,
          question_ids: questions.map((q) => q.id),
        },
        201,
      ));
    test = await api('POST', `/api/tests/${test.id}/publish`, undefined, 200);
  }

  const codes = await listAll(api, `/api/tests/${test.id}/share-codes`);
  const now = Date.now();
  const shareCode = codes.find((c) => usable(c, now)) ?? (await api('POST', `/api/tests/${test.id}/share-codes`, { max_uses: 500 }, 201));
  return [{ id: test.id, test_name: test.test_name, status: test.status, folder: folder.id, questions: questions.length, share_code: shareCode.code }];
}
