import assert from 'node:assert/strict';
import { gift, type ExportQuestion } from '../../../functions/src/interchange';
import { QUESTION_TYPES } from '../../../functions/src/questionTypes';
import { GIFT_TYPES } from '../../../functions/src/questionTypes/formats/gift';

// Pure: GIFT is read and written with a table of every question type (each type's gift.ts), so
// neither its reader nor its writer meets a type, or a kind of GIFT question, the table lacks.

const KINDS = Object.keys(gift.GIFT_KINDS) as Array<keyof typeof gift.GIFT_KINDS>;
const FIELD_TAGS = ['maxWords', 'caseSensitive', 'allOrNothing'] as const;

/** A question of `type` as little as a writer that refuses it reads. */
const bare = (type: string): ExportQuestion =>
  ({ id: 'q1', question_type: type, question_text: 'Q', options: [], correct_answer: '' }) as unknown as ExportQuestion;

describe('questionTypes/formats/gift: the table GIFT is read and written with', () => {
  it('has one entry for every question type, in the registry order', () => {
    assert.deepEqual(
      GIFT_TYPES.map((type) => type.name),
      [...QUESTION_TYPES],
    );
  });

  it('gives every type a writer, and a reader (if any) of a GIFT kind', () => {
    for (const type of GIFT_TYPES) {
      assert.equal(typeof type.write, 'function', type.name);
      assert.ok(Array.isArray(type.fieldTags), type.name);
      if (type.reader === null) continue;
      assert.ok(KINDS.includes(type.reader.kind), `${type.name} reads ${type.reader.kind}`);
      assert.equal(typeof type.reader.read, 'function', type.name);
    }
  });

  it('has each GIFT kind read by exactly one type', () => {
    for (const kind of KINDS) {
      const readers = GIFT_TYPES.filter((type) => type.reader?.kind === kind).map((type) => type.name);
      assert.equal(readers.length, 1, `${kind} is read by ${readers.join(', ') || 'no type'}`);
    }
  });

  it('names why GIFT cannot say a type that no GIFT kind becomes', () => {
    const unread = GIFT_TYPES.filter((type) => type.reader === null);
    assert.ok(unread.length > 0);
    for (const type of unread) {
      const written = type.write(bare(type.name));
      assert.ok('cannot' in written && written.cannot.length > 0, `${type.name} says why GIFT cannot say it`);
    }
  });

  it('has each tag that carries a field taken by exactly one type', () => {
    for (const tag of FIELD_TAGS) {
      const takers = GIFT_TYPES.filter((type) => type.fieldTags.includes(tag)).map((type) => type.name);
      assert.equal(takers.length, 1, `${tag} is taken by ${takers.join(', ') || 'no type'}`);
    }
  });

  it('refuses a table where a kind is read by no type or by two', () => {
    const [first, ...rest] = GIFT_TYPES;
    assert.throws(
      () => gift.giftTypes(rest.filter((type) => type.reader?.kind !== first.reader?.kind)),
      /read by one type, not 0/,
    );
    assert.throws(() => gift.giftTypes([...GIFT_TYPES, { ...first, name: 'twin' }]), /read by one type, not 2/);
    assert.doesNotThrow(() => gift.giftTypes(GIFT_TYPES));
  });
});
