import assert from 'node:assert/strict';
import { numbered } from '../../web/src/admin/analytics/numbering';

// Pure: the analytics page numbers the questions as a student meets them, a pool's after the fixed ones.

describe('web analytics: the questions numbered as a student meets them', () => {
  it('two fixed questions, then a pool whose drawn questions are its 3rd and 6th candidates: 1, 2, 3, 4', () => {
    const reply = [
      { question_id: 'a', position: 1 },
      { question_id: 'b', position: 2 },
      { question_id: 'p3', position: 5 },
      { question_id: 'p6', position: 8 },
    ];
    assert.deepEqual(
      numbered(reply).map((q) => [q.question_id, q.position]),
      [
        ['a', 1],
        ['b', 2],
        ['p3', 3],
        ['p6', 4],
      ],
    );
    assert.equal(reply[2]!.position, 5, 'the reply itself is left as it came');
  });
  it('no question, no number', () => assert.deepEqual(numbered([]), []));
});
