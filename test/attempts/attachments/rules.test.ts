import assert from 'node:assert/strict';
import {
  type AttemptForFiles,
  attachmentName,
  attachmentViews,
  decideAttach,
  decideDetach,
  filesOf,
  MAX_ATTACHMENT_NAME,
  MAX_ATTACHMENTS_PER_ATTEMPT,
} from '../../../functions/src/attempts/attachments/rules';
import type { StoredAttachment } from '../../../functions/src/attempts/documents';
import { answersInTime } from '../../../functions/src/attempts/rules';

// Pure: whether a taker may attach a file to an essay's answer, or remove one, now; and what a file is called.

const NOW = Date.parse('2026-03-01T10:00:00Z');
const file = (id: string): StoredAttachment => ({
  id,
  name: `${id}.pdf`,
  content_type: 'application/pdf',
  size: 10,
  sha256: 'ab',
  uploaded_at: '2026-03-01T09:30:00Z',
});
const files = (n: number, prefix = 'f') => Array.from({ length: n }, (_, i) => file(`${prefix}${i}`));
const attempt = (over: Partial<AttemptForFiles> = {}): AttemptForFiles => ({
  status: 'in_progress',
  expires_at: '2026-03-01T11:00:00Z',
  stopped: null,
  question_order: ['essay', 'other'],
  ...over,
});
const essayTaking = (n: number) => ({ attachments: n });

describe('attempts/attachments decideAttach', () => {
  const cases: Array<
    [
      title: string,
      a: AttemptForFiles,
      questionId: string,
      question: { attachments?: number } | undefined,
      expected: string | undefined,
    ]
  > = [
    ['the first file of an essay taking 2', attempt(), 'essay', essayTaking(2), undefined],
    ['the second of 2', attempt({ attachments: { essay: files(1) } }), 'essay', essayTaking(2), undefined],
    [
      'a third of 2',
      attempt({ attachments: { essay: files(2) } }),
      'essay',
      essayTaking(2),
      'CONFLICT: This answer already has 2 attached files, the most this question takes (2); remove one to attach another',
    ],
    [
      'a question not in the attempt',
      attempt(),
      'elsewhere',
      essayTaking(2),
      'NOT_FOUND: This question is not part of the attempt',
    ],
    [
      'a question the paper does not hold',
      attempt(),
      'essay',
      undefined,
      'NOT_FOUND: This question is not part of the attempt',
    ],
    [
      'a submitted attempt',
      attempt({ status: 'submitted' }),
      'essay',
      essayTaking(2),
      'CONFLICT: This attempt has been submitted; its attached files can no longer change',
    ],
    [
      'within the 30 s grace',
      attempt({ expires_at: new Date(NOW - 29_000).toISOString() }),
      'essay',
      essayTaking(1),
      undefined,
    ],
    [
      'past the grace',
      attempt({ expires_at: new Date(NOW - 31_000).toISOString() }),
      'essay',
      essayTaking(1),
      'CONFLICT: Time is up: the attempt passed its deadline (expires_at + 30 s); its files can no longer change',
    ],
    [
      'a stopped attempt',
      attempt({ stopped: { reason: 'test_archived', at: '2026-03-01T09:00:00Z' } }),
      'essay',
      essayTaking(1),
      'CONFLICT: This test has been archived: no more answers are taken; submit the attempt to have the answers saved so far scored',
    ],
    ['a question taking no files', attempt(), 'other', {}, 'VALIDATION_ERROR: This question takes no attached files'],
    [
      'a question taking 0 files',
      attempt(),
      'other',
      essayTaking(0),
      'VALIDATION_ERROR: This question takes no attached files',
    ],
    [
      'an attempt holding the most files one may',
      attempt({
        question_order: ['essay', ...Array.from({ length: 20 }, (_, i) => `q${i}`)],
        attachments: Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`q${i}`, files(5, `q${i}-`)])),
      }),
      'essay',
      essayTaking(5),
      `CONFLICT: This attempt already holds ${MAX_ATTACHMENTS_PER_ATTEMPT} attached files, the most one attempt may`,
    ],
  ];
  for (const [title, a, questionId, question, expected] of cases)
    it(`${title} → ${expected ?? 'attached'}`, () => {
      const refusal = decideAttach({ attempt: a, questionId, question, nowMs: NOW });
      assert.equal(refusal && `${refusal.code}: ${refusal.message}`, expected);
    });

  it('names no files for an id the map does not own ("__proto__")', () =>
    assert.deepEqual(filesOf({ attachments: {} }, '__proto__'), []));
});

describe('attempts/attachments decideDetach', () => {
  const held = attempt({ attachments: { essay: files(2) } });
  it('removes the file named, keeping the others in order', () =>
    assert.deepEqual(
      decideDetach({ attempt: held, questionId: 'essay', question: essayTaking(2), attachmentId: 'f0', nowMs: NOW }),
      { remaining: [file('f1')], removed: file('f0') },
    ));
  const refusals: Array<[string, AttemptForFiles, string, string]> = [
    ['an unknown file', held, 'nope', 'NOT_FOUND'],
    ['a file of a submitted attempt', { ...held, status: 'submitted' }, 'f0', 'CONFLICT'],
    ['a file past the deadline', { ...held, expires_at: new Date(NOW - 60_000).toISOString() }, 'f0', 'CONFLICT'],
  ];
  for (const [title, a, attachmentId, code] of refusals)
    it(`${title} → ${code}`, () => {
      const decision = decideDetach({
        attempt: a,
        questionId: 'essay',
        question: essayTaking(2),
        attachmentId,
        nowMs: NOW,
      });
      assert.equal('refused' in decision && decision.refused.code, code);
    });
});

describe('attempts/attachments attachmentName', () => {
  const cases: Array<[sent: string | undefined, type: StoredAttachment['content_type'], name: string]> = [
    ['essay.pdf', 'application/pdf', 'essay.pdf'],
    ['C:\\Users\\me\\My essay.pdf', 'application/pdf', 'My essay.pdf'],
    ['../../etc/passwd', 'application/pdf', 'passwd'],
    ['photo\u202Egpj.exe', 'image/jpeg', 'photogpj.exe'],
    ['a\u0000b\nc.png', 'image/png', 'abc.png'],
    ['   ', 'image/png', 'attachment.png'],
    [undefined, 'image/jpeg', 'attachment.jpg'],
    ['..', 'application/pdf', 'attachment.pdf'],
  ];
  for (const [sent, type, name] of cases)
    it(`${JSON.stringify(sent)} → ${JSON.stringify(name)}`, () => assert.equal(attachmentName(sent, type), name));

  it(`keeps at most ${MAX_ATTACHMENT_NAME} characters, and the extension`, () => {
    const name = attachmentName(`${'é'.repeat(300)}.pdf`, 'application/pdf');
    assert.equal(Array.from(name).length, MAX_ATTACHMENT_NAME);
    assert.ok(name.endsWith('é.pdf'));
  });
});

describe('attempts/attachments in replies and scoring', () => {
  it('lists every file in the attempt’s question order, with where its bytes are read', () => {
    const views = attachmentViews({
      id: 'c1.a',
      question_order: ['q2', 'q1'],
      attachments: { q1: [file('x')], q2: [file('y')] },
    });
    assert.deepEqual(
      views.map((v) => [v.question_id, v.id, v.url]),
      [
        ['q2', 'y', '/api/attempts/c1.a/answers/q2/attachments/y'],
        ['q1', 'x', '/api/attempts/c1.a/answers/q1/attachments/x'],
      ],
    );
  });

  it('an essay answered with files only counts as answered; files after the deadline do not', () => {
    const counted = answersInTime({
      expires_at: '2026-03-01T09:45:00Z',
      answers: { text: { answer: 'words', saved_at: '2026-03-01T09:00:00Z' } },
      attachments: {
        text: [file('a')],
        filesOnly: [file('b'), file('c')],
        late: [{ ...file('d'), uploaded_at: '2026-03-01T09:46:00Z' }],
      },
    });
    assert.deepEqual(counted, { text: 'words', filesOnly: '(2 attached files)' });
  });
});
