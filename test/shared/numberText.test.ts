import assert from 'node:assert/strict';
import { parseNumberAnswer, parseNumberText } from '../../functions/src/shared/numberText';
import { readNumberAnswer } from '../../web/src/questionTypes/numeric/numberAnswer';

// Pure: how a numeric key and a taker's numeric answer are read, no emulator needed.

const DOT_FORMS = ['42', ' 42 ', '+42', '-0.5', '.5', '5.', '1e3', '4.2E-1', '1.41'];
const COMMA_FORMS: Array<[string, string]> = [
  ['1,41', '1.41'],
  [' -1,41 ', '-1.41'],
  ['+0,5', '+0.5'],
  ['0,125', '0.125'],
  ['1234,5', '1234.5'],
  ['1,2345', '1.2345'],
  ['12,50', '12.50'],
  ['1000,000', '1000.000'],
  ['0,3', '0.3'],
  ['00,123', '00.123'],
];
const AMBIGUOUS = ['1,234', '12,345', '-999,000', '+1,000'];
const NOT_NUMBERS = [
  'Rome',
  '',
  '   ',
  '1,',
  ',5',
  '1,2,3',
  '1.234,5',
  '1,5e3',
  '1 000',
  'NaN',
  'Infinity',
  '0x2A',
  '42abc',
  '1,41 cm',
];

describe('shared/numberText parseNumberText', () => {
  it('reads a key in the point form only: a decimal comma is not a key', () => {
    assert.equal(parseNumberText('1.41'), 1.41);
    assert.equal(parseNumberText('1,41'), undefined);
  });
});

describe('shared/numberText parseNumberAnswer', () => {
  it('reads every point form a key may have, as the key does', () => {
    for (const text of DOT_FORMS) assert.equal(parseNumberAnswer(text), parseNumberText(text), text);
  });

  it('reads a decimal comma as exactly the number its point form is (the same double, not a near one)', () => {
    for (const [comma, dot] of COMMA_FORMS) {
      const value = parseNumberAnswer(comma);
      assert.notEqual(value, undefined, comma);
      assert.ok(Object.is(value, parseNumberText(dot)), `${comma} is ${dot}`);
    }
  });

  it('refuses a comma that could group thousands: "1,234" is 1.234 or 1234, so it is no number', () => {
    for (const text of AMBIGUOUS) assert.equal(parseNumberAnswer(text), undefined, text);
  });

  it('refuses anything else: words, several commas, a comma with a point or an exponent, units, blanks', () => {
    for (const text of NOT_NUMBERS) assert.equal(parseNumberAnswer(text), undefined, text);
  });

  it('refuses a comma form too long to be finite', () => {
    assert.equal(parseNumberAnswer(`${'9'.repeat(400)},5`), undefined);
  });
});

describe('web questionTypes/numeric/numberAnswer readNumberAnswer', () => {
  it('reads every entry as the service scores it, so the field refuses exactly what would score as no number', () => {
    const entries = [...DOT_FORMS, ...COMMA_FORMS.map(([comma]) => comma), ...AMBIGUOUS, ...NOT_NUMBERS];
    for (const text of entries) {
      const reading = readNumberAnswer(text);
      const served = parseNumberAnswer(text);
      if (reading.kind === 'number') assert.ok(Object.is(reading.value, served), text);
      else assert.equal(served, undefined, text);
    }
  });

  it('tells a blank entry, an ambiguous comma and a word apart, and gives the point form it reads', () => {
    assert.equal(readNumberAnswer('  ').kind, 'blank');
    assert.equal(readNumberAnswer('1,234').kind, 'ambiguous');
    assert.equal(readNumberAnswer('Rome').kind, 'not_a_number');
    assert.deepEqual(readNumberAnswer(' 1,41 '), { kind: 'number', value: 1.41, decimal: '1.41' });
  });
});
