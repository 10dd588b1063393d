// Seeds Demo Academy's exam content through the API itself, as its Client
// Admin: a folder, questions of every type, a published test (shuffle and review
// on) and a share code; then takers who sit the test, so that its analytics
// show every measure: twelve guests through the share code (anonymous sign-in,
// start, answers, submit) and Student One, with strong, middling and weak
// answer patterns. Going through the API means the demo is made by exactly
// the code that serves it: answer keys, frozen versions, seat shards, scores
// and the analytics sums the submit keeps, all.
//
// Then a second published test for the sittings features: a window that opens
// two minutes after the seed and closes a day later, an access code, a share
// code, and Student Two's standing accommodation of +50% (PUT through the API).
//
// Idempotent by name: a second run finds the folder, the questions and the
// published tests, only issues a share code if none is still usable, and only
// sends the takers who have no submitted attempt on the test yet. The sitting
// keeps its window until it has closed (then it gets a fresh one), and its
// access code and the accommodation are put back only when they differ.
//
// Locally every caller shares one rate-limit bucket (100 requests a minute,
// docs/security.md "Rate limits"): each taker saves its answers in one batch, so the
// whole seed stays under it. Should a 429 come anyway (a second run in the same
// minute), the seed waits for the Retry-After the service names and sends the request
// again (a 429 is decided before the handler runs, so nothing happened).

import { signInAnonymously, signInWithPassword } from './lib/emulatorAuth.mjs';
import { assignTest, seedClasses } from './seed-classes.mjs';

export const DEMO_FOLDER = 'Demo Folder';
export const DEMO_TEST = 'Demo General Knowledge';

/**
 * The sitting: a published test with a window that opens OPENS_IN_MS after the
 * seed and stays open OPEN_FOR_MS, a 10-minute timer, an access code, reviews
 * released when the window closes; Student Two has +50% on every test of Demo
 * Academy, so 15 minutes on this one.
 */
export const DEMO_SITTING = {
  test_name: 'Demo Timed Sitting',
  timer: 10,
  access_code: 'BLUE-OWL-42',
  opensInMs: 2 * 60_000,
  openForMs: 24 * 60 * 60_000,
};
/** The third test: each attempt draws three questions from the Demo Folder, and ends with an essay a person grades. */
export const DEMO_POOL_TEST = 'Demo Pool and Essay';
export const DEMO_ESSAY = {
  question_text: 'In a few sentences, explain why the seasons change.',
  question_type: 'essay',
  marks: 5,
  difficulty: 'medium',
  max_words: 150,
};
const DEMO_ESSAY_ANSWER =
  'The Earth’s axis is tilted, so through the year each hemisphere leans towards the Sun and then away from it.';

export const DEMO_ACCOMMODATION = { uid: 'demo-student-2', extra_time_percent: 50, extra_minutes: 0 };

// Every question type; marks and difficulties vary so analytics have something to show.
export const DEMO_QUESTIONS = [
  {
    question_text: 'What is the capital of France?',
    question_type: 'multiple_choice',
    options: ['Paris', 'Berlin', 'Madrid', 'Rome'],
    correct_answer: 'Paris',
    marks: 2,
    difficulty: 'easy',
  },
  {
    question_text: 'Which planet is known as the Red Planet?',
    question_type: 'multiple_choice',
    options: ['Venus', 'Mars', 'Jupiter', 'Mercury'],
    correct_answer: 'Mars',
    marks: 2,
    difficulty: 'easy',
  },
  {
    question_text: 'Which of these numbers are prime?',
    question_type: 'multiple_select',
    options: ['2', '3', '4', '9', '11'],
    correct_answer: '2|3|11',
    marks: 3,
    difficulty: 'medium',
  },
  {
    question_text: 'Which of these are programming languages?',
    question_type: 'multiple_select',
    options: ['Python', 'HTML', 'Rust', 'CSS'],
    correct_answer: 'Python|Rust',
    marks: 2,
    difficulty: 'medium',
  },
  {
    question_text: 'The Earth orbits the Sun.',
    question_type: 'true_false',
    options: ['True', 'False'],
    correct_answer: 'True',
    marks: 1,
    difficulty: 'easy',
  },
  {
    question_text: 'Water boils at 50 °C at sea level.',
    question_type: 'true_false',
    options: ['True', 'False'],
    correct_answer: 'False',
    marks: 1,
    difficulty: 'easy',
  },
  {
    question_text: 'What is the chemical symbol for gold?',
    question_type: 'short_answer',
    correct_answer: 'Au',
    marks: 2,
    difficulty: 'medium',
  },
  { question_text: 'What is 7 × 8?', question_type: 'numeric', correct_answer: '56', marks: 2, difficulty: 'easy' },
  {
    question_text: 'What is π to two decimal places?',
    question_type: 'numeric',
    correct_answer: '3.14',
    tolerance: 0.005,
    marks: 3,
    difficulty: 'hard',
  },
];

// The demo test's takers. `answers` follows DEMO_QUESTIONS (null: left blank), from the strongest to the weakest.
// Everyone gets "The Earth orbits the Sun." right, so its discrimination index is null (no variance); "Water boils
// at 50 °C" is answered right and wrong regardless of strength, so its index is near 0: the kind of question the
// analytics are there to show. One guest types an answer that is none of the options (other_choices).
export const DEMO_TAKERS = [
  {
    guest_name: 'Demo taker 01',
    answers: ['Paris', 'Mars', '2|3|11', 'Python|Rust', 'True', 'False', 'Au', '56', '3.14'],
  },
  {
    guest_name: 'Demo taker 02',
    answers: ['Paris', 'Mars', '2|3|11', 'Python|Rust', 'True', 'True', 'au', '56', '3.14'],
  },
  {
    guest_name: 'Demo taker 03',
    answers: ['Paris', 'Mars', '2|3|11', 'Python|Rust', 'True', 'False', 'Au', '56', '3.1'],
  },
  { guest_name: 'Demo taker 04', answers: ['Paris', 'Mars', '11|3|2', 'Python', 'True', 'False', 'AU', '56', '3.142'] },
  { guest_name: 'Demo taker 05', answers: ['Paris', 'Mars', '2|3', 'Python|Rust', 'True', 'True', 'Au', '56', null] },
  {
    guest_name: 'Demo taker 06',
    answers: ['Paris', 'Mars', '2|3|11', 'Rust|Python', 'True', 'False', 'Ag', '56', '3.2'],
  },
  {
    guest_name: 'Demo taker 07',
    answers: ['Paris', 'Venus', '2|3|9|11', 'Python|Rust', 'True', 'False', 'Au', '54', null],
  },
  {
    guest_name: 'Demo taker 08',
    answers: ['Paris', 'Mars', '2|3', 'Python|HTML|Rust', 'True', 'True', 'Fe', '56', '3'],
  },
  {
    guest_name: 'Demo taker 09',
    answers: ['Berlin', 'Mars', '3|11', 'Python|Rust', 'True', 'False', null, '48', null],
  },
  { guest_name: 'Demo taker 10', answers: ['Paris', 'Jupiter', '2|9', 'Python', 'True', 'False', 'Ag', null, '22/7'] },
  { guest_name: 'Demo taker 11', answers: ['Madrid', 'Pluto', '2|3|4', 'HTML|CSS', 'True', 'True', 'Ag', '54', null] },
  { guest_name: 'Demo taker 12', answers: ['Rome', null, '2', 'Python|HTML', 'True', 'False', null, '42', null] },
];
/** Student One (a demo account) sits it too, so GET /api/analytics/students/demo-student-1 has a row. */
export const DEMO_STUDENT_ANSWERS = ['Paris', 'Mars', '2|3|11', 'Python', 'True', 'False', 'Au', '56', '3.2'];

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

const signIn = async (authHost, email, password) => (await signInWithPassword(authHost, email, password)).idToken;
/** An anonymous sign-in at the Auth emulator: a Guest's ID token. */
const signInAsGuest = async (authHost) => (await signInAnonymously(authHost)).idToken;

const MAX_RATE_LIMIT_WAITS = 5;
let waitingUntil = 0; // the takers run a few at a time: say so once per wait, not once per taker

/** Calls the API with `token` (null: none); a 429 is waited out (Retry-After) and the request sent again. */
function apiClient(baseUrl, token) {
  return async (method, path, body, expected) => {
    for (let waits = 0; ; waits++) {
      const res = await fetch(`${baseUrl}${path}`, {
        method,
        headers: {
          ...(token ? { Authorization: `Bearer ${token}` } : {}),
          ...(body ? { 'Content-Type': 'application/json' } : {}),
        },
        body: body ? JSON.stringify(body) : undefined,
      });
      const text = await res.text();
      if (res.status === 429 && waits < MAX_RATE_LIMIT_WAITS) {
        const seconds = Number(res.headers.get('retry-after')) || 5;
        if (Date.now() >= waitingUntil) {
          process.stderr.write(`seed: the local address's rate limit is reached; waiting ${seconds} s\n`);
          waitingUntil = Date.now() + seconds * 1000;
        }
        await sleep(seconds * 1000 + 200);
        continue;
      }
      if (![expected].flat().includes(res.status))
        throw new Error(`${method} ${path} answered ${res.status}, expected ${expected}: ${text}`);
      return text ? JSON.parse(text) : undefined;
    }
  };
}

/**
 * Answers every question of a started attempt as `answers` (aligned with DEMO_QUESTIONS) says, in
 * one batch (as the web app's queue sends them), then submits: three requests a taker.
 */
async function sitAttempt(api, started, answers, query = '') {
  const batch = [];
  for (const question of started.test_details.questions) {
    const answer = answers[DEMO_QUESTIONS.findIndex((q) => q.question_text === question.question_text)];
    if (answer === null || answer === undefined) continue;
    batch.push({ question_id: question.id, student_answer: answer });
  }
  if (batch.length > 0)
    await api('POST', `/api/attempts/${started.attempt_id}/answers${query}`, { answers: batch }, 200);
  await api('POST', `/api/attempts/${started.attempt_id}/submit${query}`, undefined, 200);
}

/**
 * The demo takers who have not submitted an attempt on the test yet sit it: the guests through the share
 * code with their attempt token alone, Student One signed in. A few at a time.
 */
async function seedTakers({ api, baseUrl, authHost, test, shareCode, student }) {
  const submitted = await listAll(api, `/api/attempts?test_id=${encodeURIComponent(test.id)}&status=submitted`);
  const guestsDone = new Set(submitted.map((a) => a.guest_name).filter(Boolean));
  const jobs = DEMO_TAKERS.filter((t) => !guestsDone.has(t.guest_name)).map((taker) => async () => {
    const guest = apiClient(baseUrl, await signInAsGuest(authHost));
    const started = await guest(
      'POST',
      '/api/attempts',
      { share_code: shareCode.code, guest_name: taker.guest_name },
      201,
    );
    // After the start the attempt token alone is enough (as a guest's browser would do).
    await sitAttempt(
      apiClient(baseUrl, null),
      started,
      taker.answers,
      `?attempt_token=${encodeURIComponent(started.attempt_token)}`,
    );
  });
  if (student && !submitted.some((a) => a.student_id === student.uid)) {
    jobs.push(async () => {
      const asStudent = apiClient(baseUrl, await signIn(authHost, student.email, student.password));
      // 201 for a new attempt, 200 when an earlier run left one in progress (it is resumed).
      const started = await asStudent('POST', '/api/attempts', { test_id: test.id }, [201, 200]);
      await sitAttempt(asStudent, started, DEMO_STUDENT_ANSWERS);
    });
  }
  let next = 0;
  const worker = async () => {
    while (next < jobs.length) await jobs[next++]();
  };
  await Promise.all(Array.from({ length: Math.min(3, jobs.length) }, worker));
  return submitted.length + jobs.length;
}

/** Every item of a list endpoint, following next_cursor. */
async function listAll(api, path) {
  const items = [];
  let cursor = null;
  do {
    const sep = path.includes('?') ? '&' : '?';
    const page = await api(
      'GET',
      `${path}${sep}limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      undefined,
      200,
    );
    items.push(...page.data);
    cursor = page.pagination.next_cursor;
  } while (cursor);
  return items;
}

const usable = (code, now) =>
  !code.revoked &&
  (code.expires_at === null || Date.parse(code.expires_at) > now) &&
  (code.max_uses === null || code.uses < code.max_uses);

/** A usable share code of the test, or a new one (500 uses). */
async function shareCodeOf(api, testId) {
  const codes = await listAll(api, `/api/tests/${testId}/share-codes`);
  const now = Date.now();
  return (
    codes.find((c) => usable(c, now)) ?? (await api('POST', `/api/tests/${testId}/share-codes`, { max_uses: 500 }, 201))
  );
}

/** The published test named `name`, else a draft of that name published, else `body` created and published. */
async function publishedTest(api, published, name, body) {
  const found = published.find((t) => t.test_name === name);
  if (found) return found;
  const drafts = await listAll(api, '/api/tests?status=draft');
  const draft = drafts.find((t) => t.test_name === name) ?? (await api('POST', '/api/tests', body, 201));
  return api('POST', `/api/tests/${draft.id}/publish`, undefined, 200);
}

/** A window that opens DEMO_SITTING.opensInMs from now (whole seconds) and stays open DEMO_SITTING.openForMs. */
function freshWindow() {
  const opens = Math.ceil((Date.now() + DEMO_SITTING.opensInMs) / 1000) * 1000;
  const closes = opens + DEMO_SITTING.openForMs;
  return { opens_at: new Date(opens).toISOString(), closes_at: new Date(closes).toISOString() };
}

/**
 * The sitting's test, its delivery settings as documented (a window not yet
 * closed is kept; the access code is checked against the stored hash with the
 * service's own compiled code and sent again only when it differs), its share
 * code, and Student Two's accommodation.
 */
async function seedSitting({ api, folder, questions }) {
  const window = freshWindow();
  const delivery = (w) => ({ ...w, review_opens_at: w.closes_at, attempt_cooldown_minutes: 0 });
  const published = await listAll(api, '/api/tests?status=published');
  let test = await publishedTest(api, published, DEMO_SITTING.test_name, {
    test_name: DEMO_SITTING.test_name,
    description:
      'A timed sitting: it opens two minutes after the demo is seeded, needs its access code, and gives accommodated students their extra time.',
    timer: DEMO_SITTING.timer,
    shuffle: 1,
    allow_review: 1,
    negative_marking: 0,
    status: 'draft',
    folder_id: folder.id,
    question_ids: questions.map((q) => q.id),
    ...delivery(window),
    access_code: DEMO_SITTING.access_code,
  });
  const open = test.closes_at !== null && Date.parse(test.closes_at) > Date.now() && test.opens_at !== null;
  const wanted = delivery(open ? { opens_at: test.opens_at, closes_at: test.closes_at } : window);
  // The admin's reply carries the code (null for one stored only as a hash before: set it again).
  const codeKept = test.access_code === DEMO_SITTING.access_code;
  const patch = Object.fromEntries(Object.entries(wanted).filter(([key, value]) => test[key] !== value));
  if (!codeKept) patch.access_code = DEMO_SITTING.access_code;
  if (Object.keys(patch).length > 0) test = await api('PATCH', `/api/tests/${test.id}`, patch, 200);

  const shareCode = await shareCodeOf(api, test.id);

  const { uid, extra_time_percent, extra_minutes } = DEMO_ACCOMMODATION;
  const current = await api('GET', `/api/users/${uid}/accommodations`, undefined, 200);
  const accommodation =
    current.extra_time_percent === extra_time_percent && current.extra_minutes === extra_minutes
      ? current
      : await api('PUT', `/api/users/${uid}/accommodations`, { extra_time_percent, extra_minutes }, 200);
  return {
    id: test.id,
    test_name: test.test_name,
    status: test.status,
    folder: folder.id,
    questions: test.question_count,
    timer: test.timer,
    share_code: shareCode.code,
    access_code: DEMO_SITTING.access_code,
    opens_at: test.opens_at,
    closes_at: test.closes_at,
    review_opens_at: test.review_opens_at,
    accommodation: {
      student_id: uid,
      extra_time_percent: accommodation.extra_time_percent,
      extra_minutes: accommodation.extra_minutes,
    },
  };
}

/**
 * Seeds (or finds) the demo exam content of `clientId` through the API at
 * `baseUrl`, signed in as `admin`, and has the demo takers (and `student`)
 * sit the test; then the sitting. Returns the demo test with its share code and
 * its number of submitted attempts, and the sitting with its window, codes and
 * accommodated student.
 */
export async function seedDemoExams({ baseUrl, authHost, admin, student }) {
  const api = apiClient(baseUrl, await signIn(authHost, admin.email, admin.password));

  const folders = await listAll(api, '/api/folders');
  const folder =
    folders.find((f) => f.name === DEMO_FOLDER) ?? (await api('POST', '/api/folders', { name: DEMO_FOLDER }, 201));

  const existing = await listAll(api, `/api/questions?folder_id=${encodeURIComponent(folder.id)}`);
  const questions = [];
  for (const wanted of DEMO_QUESTIONS) {
    const found = existing.find((q) => q.question_text === wanted.question_text);
    questions.push(found ?? (await api('POST', '/api/questions', { ...wanted, folder_id: folder.id }, 201)));
  }

  const published = await listAll(api, '/api/tests?status=published');
  const test = await publishedTest(api, published, DEMO_TEST, {
    test_name: DEMO_TEST,
    description: 'A short quiz with one question of every kind. Wrong answers cost a quarter of their marks.',
    timer: 20,
    shuffle: 1,
    allow_review: 1,
    negative_marking: 1,
    status: 'draft',
    folder_id: folder.id,
    question_ids: questions.map((q) => q.id),
  });

  // Before anyone sits it: Student One's attempt then counts in its class's analytics.
  const classes = await seedClasses(api, listAll);
  const [year9] = classes;
  await assignTest(api, test, [year9.id]);
  const shareCode = await shareCodeOf(api, test.id);
  const submittedAttempts = await seedTakers({ api, baseUrl, authHost, test, shareCode, student });
  const pooled = await seedPoolAndEssay({ api, baseUrl, authHost, folder, published, assignTo: [year9.id] });
  // Last, so that its window opens two minutes after the seed has finished.
  const sitting = await seedSitting({ api, folder, questions });
  return [
    {
      id: test.id,
      test_name: test.test_name,
      status: test.status,
      folder: folder.id,
      questions: questions.length,
      share_code: shareCode.code,
      submitted_attempts: submittedAttempts,
    },
    sitting,
    pooled,
    classes,
  ];
}

/**
 * The pool-and-essay test: an essay (outside the Demo Folder) and a pool drawing three of the folder's
 * questions per attempt; one guest has sat it, so its essay waits in the grading queue.
 */
async function seedPoolAndEssay({ api, baseUrl, authHost, folder, published, assignTo }) {
  const essays = await listAll(api, '/api/questions?question_type=essay');
  const essay =
    essays.find((q) => q.question_text === DEMO_ESSAY.question_text) ??
    (await api('POST', '/api/questions', DEMO_ESSAY, 201));
  const test = await publishedTest(api, published, DEMO_POOL_TEST, {
    test_name: DEMO_POOL_TEST,
    description:
      'Three questions drawn at random from the Demo Folder for each attempt, then an essay graded by a teacher.',
    timer: 30,
    shuffle: 0,
    allow_review: 1,
    negative_marking: 0,
    status: 'draft',
    question_ids: [essay.id],
    pools: [{ folder_id: folder.id, draw: 3 }],
  });
  await assignTest(api, test, assignTo);
  const shareCode = await shareCodeOf(api, test.id);
  const submitted = await listAll(api, `/api/attempts?test_id=${encodeURIComponent(test.id)}&status=submitted`);
  if (submitted.length === 0) {
    const guest = apiClient(baseUrl, await signInAsGuest(authHost));
    const started = await guest(
      'POST',
      '/api/attempts',
      { share_code: shareCode.code, guest_name: 'Essay Writer' },
      201,
    );
    const query = `?attempt_token=${encodeURIComponent(started.attempt_token)}`;
    const asToken = apiClient(baseUrl, null);
    await asToken(
      'POST',
      `/api/attempts/${started.attempt_id}/answers${query}`,
      { question_id: essay.id, student_answer: DEMO_ESSAY_ANSWER },
      200,
    );
    await asToken('POST', `/api/attempts/${started.attempt_id}/submit${query}`, undefined, 200);
  }
  const queue = await api('GET', `/api/tests/${test.id}/grading?limit=1`, undefined, 200);
  return {
    id: test.id,
    test_name: test.test_name,
    status: test.status,
    questions: test.question_count,
    share_code: shareCode.code,
    essays_to_grade: queue.pagination.total,
  };
}
