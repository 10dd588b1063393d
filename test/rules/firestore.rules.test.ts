// Firestore security rules tests (run against the Firestore emulator).
//   FIRESTORE_EMULATOR_HOST=127.0.0.1:8181 npx mocha --import=tsx 'test/rules/**/*.test.ts'
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import {
  assertFails,
  assertSucceeds,
  initializeTestEnvironment,
  type RulesTestEnvironment,
} from '@firebase/rules-unit-testing';
import {
  collection,
  collectionGroup,
  deleteDoc,
  doc,
  documentId,
  getDoc,
  getDocs,
  query,
  setDoc,
  setLogLevel,
  updateDoc,
  where,
  type Firestore,
} from 'firebase/firestore';

const RULES_PATH = resolve(__dirname, '../../firestore.rules');
const [host, portText] = (process.env.FIRESTORE_EMULATOR_HOST || '127.0.0.1:8080').split(':');
const port = Number(portText) || 8080;

const ACME = 'acme';
const GLOBEX = 'globex';

// Every actor a browser could present itself as.
type ActorName =
  | 'unauthenticated'
  | 'anonymous guest'
  | 'anonymous guest carrying tenant claims'
  | 'student of acme'
  | 'student of globex'
  | 'client_admin of acme'
  | 'client_admin of globex'
  | 'super_admin';
const ACTORS: ActorName[] = [
  'unauthenticated',
  'anonymous guest',
  'anonymous guest carrying tenant claims',
  'student of acme',
  'student of globex',
  'client_admin of acme',
  'client_admin of globex',
  'super_admin',
];

// Existing documents of every collection in the data model (seeded before each test).
const SEED: Record<string, Record<string, unknown>> = {
  [`clients/${ACME}`]: { name: 'Acme', address: '1 Road', logo_url: '', active_status: 1, created_at: 1 },
  [`clients/${GLOBEX}`]: { name: 'Globex', address: '2 Road', logo_url: '', active_status: 1, created_at: 1 },
  [`clients/${ACME}/users/stuA`]: {
    uid: 'stuA',
    email: 'a@acme.test',
    display_name: 'Stu A',
    role: 'student',
    client_id: ACME,
    disabled: false,
    created_at: 1,
  },
  [`clients/${ACME}/users/stuA2`]: {
    uid: 'stuA2',
    email: 'a2@acme.test',
    display_name: 'Stu A2',
    role: 'student',
    client_id: ACME,
    disabled: false,
    created_at: 1,
  },
  [`clients/${ACME}/users/admA`]: {
    uid: 'admA',
    email: 'admin@acme.test',
    display_name: 'Adm A',
    role: 'client_admin',
    client_id: ACME,
    disabled: false,
    created_at: 1,
  },
  [`clients/${GLOBEX}/users/stuB`]: {
    uid: 'stuB',
    email: 'b@globex.test',
    display_name: 'Stu B',
    role: 'student',
    client_id: GLOBEX,
    disabled: false,
    created_at: 1,
  },
  [`clients/${GLOBEX}/users/admB`]: {
    uid: 'admB',
    email: 'admin@globex.test',
    display_name: 'Adm B',
    role: 'client_admin',
    client_id: GLOBEX,
    disabled: false,
    created_at: 1,
  },
  [`clients/${ACME}/tests/t1`]: { title: 'Test 1' },
  [`clients/${ACME}/questions/q1`]: { text: '2+2?', correct_answer: '4' },
  [`clients/${ACME}/attempts/at1`]: { attempt_token_hash: 'hash', answers: {}, score: 3 },
  [`clients/${ACME}/folders/f1`]: { name: 'Folder' },
  [`clients/${ACME}/share_codes/CODE1`]: { test_id: 't1' },
  [`clients/${ACME}/future_subcollection/x1`]: { secret: true },
  'super_admins/sa1': { uid: 'sa1', email: 'sa1@root.test' },
  'super_admins/sa2': { uid: 'sa2', email: 'sa2@root.test' },
  'client_names/acme': { client_id: ACME },
  'email_domains/acme.example.edu': { domain: 'acme.example.edu', client_id: ACME },
  'audit_logs/log1': { action: 'client.create', actor: 'sa1' },
  'rate_limits/key1': { count: 1 },
  // Invitation links (by the digest of their secret) and each user's live one.
  'invitations/d1': { uid: 'stuA', client_id: ACME, email: 'a@acme.test', status: 'live' },
  'invitation_holders/stuA': { digest: 'd1', client_id: ACME },
  // Frozen test versions (answer keys), share codes and their seats, import staging, name guards.
  [`clients/${ACME}/tests/t1/versions/1`]: { questions: [{ correct_answer: '4' }] },
  [`clients/${ACME}/folder_names/folder`]: { folder_id: 'f1' },
  // A class, its member, its name guard and the organization's class counter.
  [`clients/${ACME}/classes/c1`]: { id: 'c1', client_id: ACME, name: '9C', code: null, member_count: 1 },
  [`clients/${ACME}/classes/c1/members/stuA`]: { uid: 'stuA', class_id: 'c1', client_id: ACME },
  [`clients/${ACME}/class_names/9c`]: { class_id: 'c1' },
  [`clients/${ACME}/class_counts/classes`]: { count: 1 },
  [`clients/${ACME}/question_imports/imp1`]: { status: 'pending' },
  [`clients/${ACME}/question_imports/imp1/chunks/0`]: { questions: [{ correct_answer: '4' }] },
  'share_codes/CODE2': { client_id: ACME, test_id: 't1', max_uses: 30, uses: 0 },
  'share_codes/CODE2/seats/0': { remaining: 30 },
  // A version's analytics shards and the per-(test, student) attempt slots.
  [`clients/${ACME}/tests/t1/versions/1/stats_shards/0`]: { n: 3, score: { s: 5, ss: 11 } },
  [`clients/${ACME}/tests/t1/versions/1/class_stats/k1~0`]: { n: 2, score: { s: 3, ss: 5 } },
  [`clients/${ACME}/tests/t1/attempt_slots/stuA`]: { count: 1, in_progress: null },
  // A sitting's documents: a test with an access code (readable to its admins through the API only), a student's override and accommodation, their bounds' counters, a deadline sweep.
  [`clients/${ACME}/tests/t2`]: {
    test_name: 'Test 2',
    status: 'published',
    access_code_required: true,
    access_code: 'Room-12',
    access_code_hash: null,
  },
  [`clients/${ACME}/tests/t1/overrides/stuA`]: {
    test_id: 't1',
    student_id: 'stuA',
    client_id: ACME,
    timer: 90,
    set_by: 'admA',
    updated_at: 't',
  },
  [`clients/${ACME}/accommodations/stuA`]: {
    student_id: 'stuA',
    client_id: ACME,
    extra_time_percent: 50,
    extra_minutes: 0,
    set_by: 'admA',
    updated_at: 't',
  },
  [`clients/${ACME}/sitting_counts/accommodations`]: { count: 1 },
  [`clients/${ACME}/tests/t1/sitting_counts/overrides`]: { count: 1 },
  'deadline_sweeps/sw1': {
    client_id: ACME,
    test_id: 't1',
    student_id: null,
    pending: true,
    cursor: null,
    meta: { ip: '1.2.3.4' },
  },
  // An organization's registered networks: who is counted by identity, where on-site-only tests may be taken.
  [`clients/${ACME}/networks/registered`]: {
    client_id: ACME,
    networks: ['203.0.113.0/24'],
    updated_at: 1,
    updated_by: 'admA',
  },
  // The outbox and webhook endpoints: signing secrets, the bodies sent (attempts), every try's outcome.
  [`clients/${ACME}/webhooks/wh1`]: {
    id: 'wh1',
    client_id: ACME,
    url: 'https://hooks.example.com/in',
    events: ['attempt.submitted'],
    secrets: [{ secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', expires_at: null }],
    active: true,
  },
  [`clients/${ACME}/events/ev1`]: { id: 'ev1', client_id: ACME, type: 'attempt.submitted', fanned_out: true },
  // An attempt's integrity events and their summary: what a proctor reads, through the API only.
  [`clients/${ACME}/attempts/at1/integrity_events/0000000000000001`]: {
    type: 'paste',
    at: '2025-01-01T00:00:00.000Z',
    client_seq: 1,
    received_at: '2025-01-01T00:00:01.000Z',
  },
  [`clients/${ACME}/attempts/at1/integrity_summary/summary`]: { attempt_id: 'at1', total: 1, counts: { paste: 1 } },
  [`clients/${ACME}/deliveries/ev1~webhook-wh1`]: {
    id: 'ev1~webhook-wh1',
    client_id: ACME,
    status: 'pending',
    payload: '{}',
  },
};

let env: RulesTestEnvironment;
const dbs = {} as Record<ActorName, Firestore>;
const db = (actor: ActorName): Firestore => dbs[actor];

// Asserts that `op` is denied for every actor (so a single allowed actor fails the test).
async function deniedForAll(op: (fs: Firestore) => Promise<unknown>, actors: ActorName[] = ACTORS): Promise<void> {
  for (const actor of actors) {
    try {
      await assertFails(op(db(actor)));
    } catch (err) {
      throw new Error(`expected denial for "${actor}": ${(err as Error).message}`, { cause: err });
    }
  }
}

describe('firestore.rules', function () {
  this.timeout(60_000);

  before(async () => {
    setLogLevel('error'); // permission-denied warnings are expected noise here
    env = await initializeTestEnvironment({
      projectId: 'demo-exam-rules',
      firestore: { rules: readFileSync(RULES_PATH, 'utf8'), host, port },
    });
    const anon = { firebase: { sign_in_provider: 'anonymous' as const } };
    const make = {
      unauthenticated: () => env.unauthenticatedContext(),
      'anonymous guest': () => env.authenticatedContext('guest1', anon),
      // Guests never get claims, but even if one did, anonymity must win.
      'anonymous guest carrying tenant claims': () =>
        env.authenticatedContext('stuA', { ...anon, role: 'student', client_id: ACME }),
      'student of acme': () => env.authenticatedContext('stuA', { role: 'student', client_id: ACME }),
      'student of globex': () => env.authenticatedContext('stuB', { role: 'student', client_id: GLOBEX }),
      'client_admin of acme': () => env.authenticatedContext('admA', { role: 'client_admin', client_id: ACME }),
      'client_admin of globex': () => env.authenticatedContext('admB', { role: 'client_admin', client_id: GLOBEX }),
      super_admin: () => env.authenticatedContext('sa1', { role: 'super_admin' }),
    } satisfies Record<ActorName, unknown>;
    for (const actor of ACTORS) dbs[actor] = make[actor]().firestore() as unknown as Firestore;
  });

  beforeEach(async () => {
    await env.clearFirestore();
    await env.withSecurityRulesDisabled(async (ctx) => {
      const admin = ctx.firestore() as unknown as Firestore;
      for (const [path, data] of Object.entries(SEED)) await setDoc(doc(admin, path), data);
    });
  });

  after(async () => {
    await env?.cleanup();
  });

  describe('clients/{clientId}: only a client_admin or student of that client may get it; nobody may list clients', () => {
    it('a student may get its own client doc', async () => {
      await assertSucceeds(getDoc(doc(db('student of acme'), `clients/${ACME}`)));
    });

    it('a client_admin may get its own client doc', async () => {
      await assertSucceeds(getDoc(doc(db('client_admin of acme'), `clients/${ACME}`)));
    });

    it('members of another client cannot get it', async () => {
      await deniedForAll((fs) => getDoc(doc(fs, `clients/${ACME}`)), ['student of globex', 'client_admin of globex']);
    });

    it('unauthenticated users and anonymous guests (even with tenant claims) cannot get it', async () => {
      await deniedForAll(
        (fs) => getDoc(doc(fs, `clients/${ACME}`)),
        ['unauthenticated', 'anonymous guest', 'anonymous guest carrying tenant claims'],
      );
    });

    it('a super_admin cannot get it (super admins use the API)', async () => {
      await assertFails(getDoc(doc(db('super_admin'), `clients/${ACME}`)));
    });

    it('a signed-in user with the right client_id but no tenant role cannot get it', async () => {
      const fs = env.authenticatedContext('x1', { role: 'other', client_id: ACME }).firestore() as unknown as Firestore;
      await assertFails(getDoc(doc(fs, `clients/${ACME}`)));
    });

    it('no one can list clients, not even a member filtering to its own client', async () => {
      await deniedForAll((fs) => getDocs(collection(fs, 'clients')));
      await deniedForAll(
        (fs) => getDocs(query(collection(fs, 'clients'), where(documentId(), '==', ACME))),
        ['student of acme', 'client_admin of acme'],
      );
    });
  });

  describe('clients/{clientId}/users/{uid}: a user may get only its own profile, in the client of its claims', () => {
    it('a student may get its own profile', async () => {
      await assertSucceeds(getDoc(doc(db('student of acme'), `clients/${ACME}/users/stuA`)));
    });

    it('a client_admin may get its own profile', async () => {
      await assertSucceeds(getDoc(doc(db('client_admin of acme'), `clients/${ACME}/users/admA`)));
    });

    it("a student cannot get another user's profile in its own client", async () => {
      await assertFails(getDoc(doc(db('student of acme'), `clients/${ACME}/users/stuA2`)));
      await assertFails(getDoc(doc(db('student of acme'), `clients/${ACME}/users/admA`)));
    });

    it("a client_admin cannot get a student's profile (admins use the API)", async () => {
      await assertFails(getDoc(doc(db('client_admin of acme'), `clients/${ACME}/users/stuA`)));
    });

    it('no one can get a profile in another client', async () => {
      await deniedForAll(
        (fs) => getDoc(doc(fs, `clients/${GLOBEX}/users/stuB`)),
        ['student of acme', 'client_admin of acme', 'super_admin'],
      );
    });

    it('a matching uid under a client other than its client_id claim is denied', async () => {
      const fs = env
        .authenticatedContext('stuA', { role: 'student', client_id: GLOBEX })
        .firestore() as unknown as Firestore;
      await assertFails(getDoc(doc(fs, `clients/${ACME}/users/stuA`)));
    });

    it('unauthenticated users, anonymous guests (even with matching uid and claims) and super admins cannot get it', async () => {
      await deniedForAll(
        (fs) => getDoc(doc(fs, `clients/${ACME}/users/stuA`)),
        ['unauthenticated', 'anonymous guest', 'anonymous guest carrying tenant claims', 'super_admin'],
      );
    });

    it('no one can list users of a client or query users across clients', async () => {
      await deniedForAll((fs) => getDocs(collection(fs, `clients/${ACME}/users`)));
      await deniedForAll((fs) => getDocs(query(collection(fs, `clients/${ACME}/users`), where('uid', '==', 'stuA'))));
      await deniedForAll((fs) => getDocs(collectionGroup(fs, 'users')));
    });

    it('a user cannot list even its own profile via a query on its own doc id (get only, not list)', async () => {
      await assertFails(
        getDocs(query(collection(db('student of acme'), `clients/${ACME}/users`), where(documentId(), '==', 'stuA'))),
      );
      await assertFails(
        getDocs(
          query(collection(db('client_admin of acme'), `clients/${ACME}/users`), where(documentId(), 'in', ['admA'])),
        ),
      );
    });
  });

  describe('super_admins/{uid}: a super_admin may get only its own profile', () => {
    it('a super_admin may get its own profile', async () => {
      await assertSucceeds(getDoc(doc(db('super_admin'), 'super_admins/sa1')));
    });

    it("a super_admin cannot get another super admin's profile", async () => {
      await assertFails(getDoc(doc(db('super_admin'), 'super_admins/sa2')));
    });

    it('a non-super-admin whose uid matches the doc id cannot get it', async () => {
      const student = env
        .authenticatedContext('sa1', { role: 'student', client_id: ACME })
        .firestore() as unknown as Firestore;
      const guest = env
        .authenticatedContext('sa1', { role: 'super_admin', firebase: { sign_in_provider: 'anonymous' } })
        .firestore() as unknown as Firestore;
      await assertFails(getDoc(doc(student, 'super_admins/sa1')));
      await assertFails(getDoc(doc(guest, 'super_admins/sa1')));
    });

    it('no other actor can get it', async () => {
      await deniedForAll(
        (fs) => getDoc(doc(fs, 'super_admins/sa1')),
        ACTORS.filter((a) => a !== 'super_admin'),
      );
    });

    it('no one can list super admins', async () => {
      await deniedForAll((fs) => getDocs(collection(fs, 'super_admins')));
    });

    it('a super_admin cannot list even its own profile via a query on its own doc id (get only, not list)', async () => {
      await assertFails(
        getDocs(query(collection(db('super_admin'), 'super_admins'), where(documentId(), '==', 'sa1'))),
      );
    });
  });

  // Top-level service collections: never readable from a browser.
  const serviceCollections: Array<[string, string, string]> = [
    ['audit_logs', 'audit_logs/log1', 'audit records'],
    ['rate_limits', 'rate_limits/key1', 'rate limit counters'],
    ['client_names', 'client_names/acme', 'client name guards'],
    ['email_domains', 'email_domains/acme.example.edu', 'the email domains bound to organizations'],
    ['share_codes', 'share_codes/CODE2', 'share codes (redeemed through the API only)'],
    ['deadline_sweeps', 'deadline_sweeps/sw1', 'deadline sweeps (who changed a deadline, from which address)'],
    ['invitations', 'invitations/d1', 'invitation links (redeemed through the API only)'],
    ['invitation_holders', 'invitation_holders/stuA', 'each user’s live invitation'],
  ];
  for (const [name, path, what] of serviceCollections) {
    describe(`${name}: no one can read ${what}, not even a super admin`, () => {
      it(`no one can get a doc in ${name}`, async () => {
        await deniedForAll((fs) => getDoc(doc(fs, path)));
      });
      it(`no one can list ${name}`, async () => {
        await deniedForAll((fs) => getDocs(collection(fs, name)));
      });
    });
  }

  // Tenant subcollections: never readable from a browser, not even by the tenant's own admin.
  const tenantCollections: Array<[string, string, string]> = [
    ['tests', 't1', 'tests'],
    ['questions', 'q1', 'questions (answer keys)'],
    ['attempts', 'at1', 'attempts (token hashes)'],
    ['folders', 'f1', 'folders'],
    ['share_codes', 'CODE1', 'share codes'],
    ['folder_names', 'folder', 'folder name guards'],
    ['classes', 'c1', 'classes'],
    ['class_names', '9c', 'class name guards'],
    ['class_counts', 'classes', "an organization's class counter"],
    ['question_imports', 'imp1', 'question imports'],
    ['accommodations', 'stuA', "students' accommodations"],
    ['sitting_counts', 'accommodations', "an organization's accommodation counter"],
    ['webhooks', 'wh1', 'webhook endpoints (signing secrets)'],
    ['events', 'ev1', 'outbox events'],
    ['deliveries', 'ev1~webhook-wh1', 'webhook deliveries (bodies sent, tries)'],
    ['future_subcollection', 'x1', 'subcollections added later'],
  ];
  for (const [name, id, what] of tenantCollections) {
    describe(`clients/{clientId}/${name}: no one can read ${what}, not even the client's own admin or a super admin`, () => {
      it(`no one can get a doc in ${name}`, async () => {
        await deniedForAll((fs) => getDoc(doc(fs, `clients/${ACME}/${name}/${id}`)));
      });
      it(`no one can list ${name} of a client or query ${name} across clients`, async () => {
        await deniedForAll((fs) => getDocs(collection(fs, `clients/${ACME}/${name}`)));
        await deniedForAll((fs) => getDocs(collectionGroup(fs, name)));
      });
    });
  }

  // Below a tenant's or a code's document: never readable either, however deep.
  const nestedCollections: Array<[string, string, string]> = [
    [`clients/${ACME}/tests/t1/versions`, '1', 'frozen test versions (answer keys)'],
    [`clients/${ACME}/question_imports/imp1/chunks`, '0', 'staged import chunks (answer keys)'],
    ['share_codes/CODE2/seats', '0', 'share-code seats'],
    [`clients/${ACME}/tests/t1/versions/1/stats_shards`, '0', "a version's analytics sums"],
    [
      `clients/${ACME}/attempts/at1/integrity_events`,
      '0000000000000001',
      "an attempt's integrity events (its taker included)",
    ],
    [`clients/${ACME}/attempts/at1/integrity_summary`, 'summary', "an attempt's integrity counts"],
    [`clients/${ACME}/tests/t1/versions/1/class_stats`, 'k1~0', "a class's analytics sums"],
    [`clients/${ACME}/tests/t1/attempt_slots`, 'stuA', 'attempt slots'],
    [`clients/${ACME}/classes/c1/members`, 'stuA', "a class's members"],
    [`clients/${ACME}/tests/t1/overrides`, 'stuA', "a test's overrides per student"],
    [`clients/${ACME}/tests/t1/sitting_counts`, 'overrides', "a test's override counter"],
  ];
  for (const [path, id, what] of nestedCollections) {
    const name = path.split('/').pop()!;
    describe(`${path}: no one can read ${what}`, () => {
      it(`no one can get a doc or list ${name}, here or across the database`, async () => {
        await deniedForAll((fs) => getDoc(doc(fs, `${path}/${id}`)));
        await deniedForAll((fs) => getDocs(collection(fs, path)));
        await deniedForAll((fs) => getDocs(collectionGroup(fs, name)));
      });
    });
  }

  describe("an attempt's integrity events: no one writes them from a browser (only the API, which checks the taker)", () => {
    it('no one can create an event or the summary, not even the taker or a super admin', async () => {
      await deniedForAll((fs) =>
        setDoc(doc(fs, `clients/${ACME}/attempts/at1/integrity_events/0000000000000002`), {
          type: 'focus_back',
          at: '2025-01-01T00:00:00.000Z',
          client_seq: 2,
        }),
      );
      await deniedForAll((fs) =>
        setDoc(doc(fs, `clients/${ACME}/attempts/at1/integrity_summary/summary`), { total: 0 }),
      );
    });
  });

  describe("a sitting's documents: no student, admin of the organization or guest reads or writes them from a browser", () => {
    const sittingDocs = [
      `clients/${ACME}/tests/t1/overrides/stuA`,
      `clients/${ACME}/accommodations/stuA`,
      `clients/${ACME}/sitting_counts/accommodations`,
      `clients/${ACME}/tests/t1/sitting_counts/overrides`,
      'deadline_sweeps/sw1',
    ];
    const browsers: ActorName[] = [
      'student of acme',
      'client_admin of acme',
      'anonymous guest',
      'anonymous guest carrying tenant claims',
    ];

    it('the student cannot read its own override or accommodation, nor the admin of its organization', async () => {
      for (const path of sittingDocs) await deniedForAll((fs) => getDoc(doc(fs, path)), browsers);
    });

    it('none of them can list overrides, accommodations, counters or sweeps, by collection or across the database', async () => {
      for (const path of [
        `clients/${ACME}/tests/t1/overrides`,
        `clients/${ACME}/accommodations`,
        `clients/${ACME}/sitting_counts`,
        `clients/${ACME}/tests/t1/sitting_counts`,
        'deadline_sweeps',
      ]) {
        await deniedForAll((fs) => getDocs(collection(fs, path)), browsers);
      }
      await deniedForAll(
        (fs) => getDocs(query(collectionGroup(fs, 'overrides'), where('student_id', '==', 'stuA'))),
        browsers,
      );
      await deniedForAll(
        (fs) => getDocs(query(collectionGroup(fs, 'accommodations'), where('student_id', '==', 'stuA'))),
        browsers,
      );
      await deniedForAll(
        (fs) => getDocs(query(collection(fs, 'deadline_sweeps'), where('pending', '==', true))),
        browsers,
      );
    });

    it("none of them can raise the student's extra time or timer, reset a counter, or forge or finish a sweep", async () => {
      await deniedForAll(
        (fs) => updateDoc(doc(fs, `clients/${ACME}/accommodations/stuA`), { extra_time_percent: 400 }),
        browsers,
      );
      await deniedForAll(
        (fs) => setDoc(doc(fs, `clients/${ACME}/tests/t1/overrides/stuA`), { timer: 1440, max_attempts: null }),
        browsers,
      );
      await deniedForAll(
        (fs) => setDoc(doc(fs, `clients/${ACME}/tests/t2/overrides/stuA`), { closes_at: null }),
        browsers,
      );
      await deniedForAll(
        (fs) => setDoc(doc(fs, `clients/${ACME}/accommodations/stuA2`), { extra_minutes: 1440 }),
        browsers,
      );
      await deniedForAll(
        (fs) => setDoc(doc(fs, `clients/${ACME}/sitting_counts/accommodations`), { count: 0 }),
        browsers,
      );
      await deniedForAll(
        (fs) => updateDoc(doc(fs, `clients/${ACME}/tests/t1/sitting_counts/overrides`), { count: 0 }),
        browsers,
      );
      await deniedForAll(
        (fs) =>
          setDoc(doc(fs, 'deadline_sweeps/sw2'), {
            client_id: ACME,
            test_id: 't1',
            extension_minutes: 1440,
            pending: true,
          }),
        browsers,
      );
      await deniedForAll((fs) => updateDoc(doc(fs, 'deadline_sweeps/sw1'), { pending: false }), browsers);
      for (const path of sittingDocs) await deniedForAll((fs) => deleteDoc(doc(fs, path)), browsers);
    });

    it("a student cannot read its own organization's test that holds an access code's hash, by id or by a query on it", async () => {
      await assertFails(getDoc(doc(db('student of acme'), `clients/${ACME}/tests/t2`)));
      await assertFails(
        getDocs(
          query(collection(db('student of acme'), `clients/${ACME}/tests`), where('access_code_required', '==', true)),
        ),
      );
      await assertFails(
        getDocs(
          query(collectionGroup(db('student of acme'), 'tests'), where(documentId(), '==', `clients/${ACME}/tests/t2`)),
        ),
      );
    });
  });

  describe("clients/{clientId}/networks: no one reads or writes an organization's registered networks from a browser, not even its own admin", () => {
    const registered = `clients/${ACME}/networks/registered`;

    it("no one can get them, list them, or query every organization's", async () => {
      await deniedForAll((fs) => getDoc(doc(fs, registered)));
      await deniedForAll((fs) => getDocs(collection(fs, `clients/${ACME}/networks`)));
      await deniedForAll((fs) => getDocs(collectionGroup(fs, 'networks')));
      await deniedForAll((fs) => getDocs(query(collectionGroup(fs, 'networks'), where('client_id', '==', ACME))));
    });

    it("no one can widen them, replace them, empty them or register another organization's", async () => {
      await deniedForAll((fs) => updateDoc(doc(fs, registered), { networks: ['0.0.0.0/0'] }));
      await deniedForAll((fs) => setDoc(doc(fs, registered), { client_id: ACME, networks: ['198.51.100.0/24'] }));
      await deniedForAll((fs) => deleteDoc(doc(fs, registered)));
      await deniedForAll((fs) =>
        setDoc(doc(fs, `clients/${GLOBEX}/networks/registered`), { client_id: GLOBEX, networks: ['198.51.100.0/24'] }),
      );
      await deniedForAll((fs) =>
        setDoc(doc(fs, `clients/${ACME}/networks/another`), { client_id: ACME, networks: ['198.51.100.0/24'] }),
      );
    });
  });

  describe('writes: no one can create, update or delete any document (all writes go through the API)', () => {
    const existing = Object.keys(SEED);
    // New doc ids per collection, incl. ids an actor might try to claim as "its own".
    const creations = [
      'clients/initech',
      `clients/${ACME}/users/newUser`,
      `clients/${ACME}/users/guest1`,
      `clients/${ACME}/tests/t2`,
      `clients/${ACME}/questions/q2`,
      `clients/${ACME}/attempts/at2`,
      `clients/${ACME}/folders/f2`,
      `clients/${ACME}/classes/c2`,
      `clients/${ACME}/classes/c1/members/stuA2`,
      `clients/${ACME}/class_names/new`,
      `clients/${ACME}/class_counts/other`,
      `clients/${ACME}/share_codes/CODE2`,
      `clients/${ACME}/future_subcollection/x2`,
      `clients/${ACME}/tests/t1/versions/2`,
      'share_codes/CODE3',
      'share_codes/CODE2/seats/1',
      `clients/${ACME}/tests/t1/versions/1/stats_shards/1`,
      `clients/${ACME}/tests/t1/versions/1/class_stats/k1~1`,
      `clients/${ACME}/tests/t1/attempt_slots/stuB`,
      `clients/${ACME}/tests/t1/overrides/stuA2`,
      `clients/${ACME}/tests/t1/sitting_counts/x`,
      `clients/${ACME}/accommodations/stuA2`,
      `clients/${ACME}/sitting_counts/x`,
      'deadline_sweeps/sw2',
      `clients/${GLOBEX}/networks/registered`,
      `clients/${ACME}/question_imports/imp2`,
      'super_admins/stuA',
      'client_names/initech',
      'email_domains/initech.example.edu',
      'audit_logs/log2',
      'rate_limits/key2',
      'invitations/d2',
      'invitation_holders/stuB',
    ];

    for (const path of creations) {
      it(`no one can create ${path}`, async () => {
        await deniedForAll((fs) => setDoc(doc(fs, path), { created_by_browser: true }));
      });
    }

    for (const path of existing) {
      it(`no one can update ${path}`, async () => {
        await deniedForAll((fs) => updateDoc(doc(fs, path), { tampered: true }));
        await deniedForAll((fs) => setDoc(doc(fs, path), { tampered: true }, { merge: true }));
      });
      it(`no one can delete ${path}`, async () => {
        await deniedForAll((fs) => deleteDoc(doc(fs, path)));
      });
    }

    it('a student cannot put itself in a class: not by its member document, nor by the class_ids of its own profile', async () => {
      const fs = db('student of acme');
      await assertFails(setDoc(doc(fs, `clients/${ACME}/classes/c1/members/stuA`), { uid: 'stuA', class_id: 'c1' }));
      await assertFails(updateDoc(doc(fs, `clients/${ACME}/users/stuA`), { class_ids: ['c1'] }));
      await assertFails(updateDoc(doc(fs, `clients/${ACME}/classes/c1`), { member_count: 0 }));
    });

    it('a user cannot escalate its own role or re-enable itself by writing its own profile', async () => {
      await assertFails(updateDoc(doc(db('student of acme'), `clients/${ACME}/users/stuA`), { role: 'client_admin' }));
      await assertFails(updateDoc(doc(db('client_admin of acme'), `clients/${ACME}/users/admA`), { disabled: false }));
    });

    it('a user cannot create its own super_admins doc, and a super admin cannot edit its own', async () => {
      await assertFails(setDoc(doc(db('student of acme'), 'super_admins/stuA'), { uid: 'stuA' }));
      await assertFails(updateDoc(doc(db('super_admin'), 'super_admins/sa1'), { email: 'x@y.test' }));
    });
  });
});
