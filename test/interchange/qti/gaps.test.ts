import assert from 'node:assert/strict';
import type { ParsedItem } from '../../../functions/src/interchange/model';
import { parseQtiXml } from '../../../functions/src/questionTypes/bankFormats';

// The gaps of one text (text entries, inline choices, a gap match, a single
// choice, a match or an association among them) as one gap_fill: numbered in
// text order, each keyed by its correct response or its mapping (a mapped
// value a share of the best); a match's stems each a drop-down gap.

const QTI21 = 'xmlns="http://www.imsglobal.org/xsd/imsqti_v2p1"';

interface Declared {
  id: string;
  baseType: string;
  key?: string[];
  map?: string;
  cardinality?: string;
}

function item(declared: Declared[], body: string, rp = ''): ParsedItem {
  const declarations = declared
    .map(
      (
        d,
      ) => `<responseDeclaration identifier="${d.id}" cardinality="${d.cardinality ?? 'single'}" baseType="${d.baseType}">
        ${d.key ? `<correctResponse>${d.key.map((k) => `<value>${k}</value>`).join('')}</correctResponse>` : ''}
        ${d.map ? `<mapping defaultValue="0">${d.map}</mapping>` : ''}</responseDeclaration>`,
    )
    .join('');
  const xml = `<assessmentItem ${QTI21} identifier="x" title="T" adaptive="false" timeDependent="false">${declarations}<itemBody>${body}</itemBody>${rp}</assessmentItem>`;
  return parseQtiXml(xml).items[0];
}

const inline = (id: string) =>
  `<inlineChoiceInteraction responseIdentifier="${id}"><inlineChoice identifier="a">red</inlineChoice><inlineChoice identifier="b">blue</inlineChoice></inlineChoiceInteraction>`;
const entry = (id: string) => `<textEntryInteraction responseIdentifier="${id}"/>`;
const MAP_RESPONSE =
  '<responseProcessing template="http://www.imsglobal.org/question/qti_v2p1/rptemplates/map_response"/>';

describe('QTI gaps of one text as a gap_fill', () => {
  const cases: Array<{
    name: string;
    read: () => ParsedItem;
    expect: Record<string, unknown>;
    error?: RegExp;
    status?: string;
    warnings?: RegExp;
  }> = [
    {
      name: 'an inline choice alone: one select gap, its choices the options',
      read: () => item([{ id: 'R', baseType: 'identifier', key: ['b'] }], `<p>The sky is ${inline('R')}.</p>`),
      expect: {
        question_type: 'gap_fill',
        question_text: '<p>The sky is [[1]].</p>',
        gaps: [{ kind: 'select', answers: [{ answer: 'blue', credit: 100 }], options: ['red', 'blue'] }],
        marks: 1,
      },
    },
    {
      name: 'text entries numbered in text order: a string one text (case-sensitive as match compares), a float one numeric',
      read: () =>
        item(
          [
            { id: 'R2', baseType: 'float', key: ['9.81'] },
            { id: 'R1', baseType: 'string', key: ['Newton'] },
          ],
          `<p>${entry('R1')} found g = ${entry('R2')} m/s².</p>`,
        ),
      expect: {
        question_text: '<p>[[1]] found g = [[2]] m/s².</p>',
        gaps: [
          { kind: 'text', answers: [{ answer: 'Newton', credit: 100 }], case_sensitive: true },
          { kind: 'numeric', answers: [{ answer: '9.81', credit: 100 }] },
        ],
        marks: 2,
      },
    },
    {
      name: 'a mapping: further answers at their share of the best, case-insensitive as its entries say',
      read: () =>
        item(
          [
            {
              id: 'R1',
              baseType: 'string',
              key: ['York'],
              map: '<mapEntry mapKey="York" mappedValue="2" caseSensitive="false"/><mapEntry mapKey="Yorke" mappedValue="1" caseSensitive="false"/>',
            },
            { id: 'R2', baseType: 'identifier', key: ['a'], map: '<mapEntry mapKey="a" mappedValue="2"/>' },
          ],
          `<p>${entry('R1')} ${inline('R2')}</p>`,
          MAP_RESPONSE,
        ),
      expect: {
        gaps: [
          {
            kind: 'text',
            answers: [
              { answer: 'York', credit: 100 },
              { answer: 'Yorke', credit: 50 },
            ],
            case_sensitive: false,
          },
          { kind: 'select', answers: [{ answer: 'red', credit: 100 }], options: ['red', 'blue'] },
        ],
      },
    },
    {
      name: 'a gap match: drag gaps, its chips the drag options, chips of matchMax 0 reusable',
      read: () =>
        item(
          [{ id: 'R', baseType: 'directedPair', cardinality: 'multiple', key: ['F G1', 'F G2'] }],
          `<gapMatchInteraction responseIdentifier="R"><gapText identifier="F" matchMax="0">fire</gapText><gapText identifier="W" matchMax="0">water</gapText><p>Hot <gap identifier="G1"/> and <gap identifier="G2"/>.</p></gapMatchInteraction>`,
        ),
      expect: {
        question_text: '<p>Hot [[1]] and [[2]].</p>',
        gaps: [
          { kind: 'drag', answers: [{ answer: 'fire', credit: 100 }] },
          { kind: 'drag', answers: [{ answer: 'fire', credit: 100 }] },
        ],
        drag_options: ['fire', 'water'],
        drag_reusable: true,
      },
    },
    {
      name: 'a text entry with no key beside others: an error naming it',
      read: () =>
        item(
          [
            { id: 'R1', baseType: 'string', key: ['a'] },
            { id: 'R2', baseType: 'string' },
          ],
          `<p>${entry('R1')} ${entry('R2')}</p>`,
        ),
      expect: {},
      error: /The textEntryInteraction "R2" has no correct response/,
    },
    {
      name: 'a choice of several whose key is one, among gaps: a drop-down gap (said so)',
      read: () =>
        item(
          [
            { id: 'R1', baseType: 'string', key: ['a'] },
            { id: 'R2', baseType: 'identifier', cardinality: 'multiple', key: ['c'] },
          ],
          `<p>${entry('R1')}</p><choiceInteraction responseIdentifier="R2" maxChoices="0"><simpleChoice identifier="c">c</simpleChoice><simpleChoice identifier="d">d</simpleChoice></choiceInteraction>`,
        ),
      expect: {
        question_type: 'gap_fill',
        question_text: '<p>[[1]]</p><p>[[2]]</p>',
        gaps: [
          { kind: 'text', answers: [{ answer: 'a', credit: 100 }], case_sensitive: true },
          { kind: 'select', answers: [{ answer: 'c', credit: 100 }], options: ['c', 'd'] },
        ],
        marks: 2,
      },
      warnings: /let the taker tick several choices; its key is one/,
    },
    {
      name: 'a match beside a choice: after its prompt, each stem with a drop-down gap of the other set',
      read: () =>
        item(
          [
            { id: 'R1', baseType: 'identifier', key: ['y'] },
            { id: 'R2', baseType: 'directedPair', cardinality: 'multiple', key: ['F P', 'I R'] },
          ],
          `<choiceInteraction responseIdentifier="R1" maxChoices="1"><prompt>Is it?</prompt><simpleChoice identifier="y">yes</simpleChoice><simpleChoice identifier="n">no</simpleChoice></choiceInteraction>` +
            `<matchInteraction responseIdentifier="R2" maxAssociations="2"><prompt>Capitals</prompt><simpleMatchSet><simpleAssociableChoice identifier="F" matchMax="1">France</simpleAssociableChoice><simpleAssociableChoice identifier="I" matchMax="1">Italy</simpleAssociableChoice></simpleMatchSet>` +
            `<simpleMatchSet><simpleAssociableChoice identifier="P" matchMax="1">Paris</simpleAssociableChoice><simpleAssociableChoice identifier="R" matchMax="1">Rome</simpleAssociableChoice><simpleAssociableChoice identifier="B" matchMax="1">Berlin</simpleAssociableChoice></simpleMatchSet></matchInteraction>`,
        ),
      expect: {
        question_type: 'gap_fill',
        question_text: '<p>Is it?</p><p>[[1]]</p><p>Capitals</p><ul><li>France [[2]]</li><li>Italy [[3]]</li></ul>',
        gaps: [
          { kind: 'select', answers: [{ answer: 'yes', credit: 100 }], options: ['yes', 'no'] },
          { kind: 'select', options: ['Paris', 'Rome', 'Berlin'], answers: [{ answer: 'Paris', credit: 100 }] },
          { kind: 'select', options: ['Paris', 'Rome', 'Berlin'], answers: [{ answer: 'Rome', credit: 100 }] },
        ],
        marks: 2,
      },
      warnings: /The matchInteraction "R2" became a drop-down gap for each of its stems/,
    },
    {
      name: 'a match beside an order: a composite item, unsupported',
      read: () =>
        item(
          [
            { id: 'R1', baseType: 'identifier', cardinality: 'ordered', key: ['a', 'b'] },
            { id: 'R2', baseType: 'directedPair', cardinality: 'multiple', key: ['F P'] },
          ],
          `<orderInteraction responseIdentifier="R1"><simpleChoice identifier="a">a</simpleChoice><simpleChoice identifier="b">b</simpleChoice></orderInteraction>` +
            `<matchInteraction responseIdentifier="R2"><simpleMatchSet><simpleAssociableChoice identifier="F" matchMax="1">France</simpleAssociableChoice></simpleMatchSet><simpleMatchSet><simpleAssociableChoice identifier="P" matchMax="1">Paris</simpleAssociableChoice></simpleMatchSet></matchInteraction>`,
        ),
      expect: {},
      status: 'unsupported',
      error: /composite item \(orderInteraction, matchInteraction\)|orderInteraction, matchInteraction/,
    },
    {
      name: 'a choice of several whose key is several among gaps: a composite item, unsupported',
      read: () =>
        item(
          [
            { id: 'R1', baseType: 'string', key: ['a'] },
            { id: 'R2', baseType: 'identifier', cardinality: 'multiple', key: ['c', 'd'] },
          ],
          `<p>${entry('R1')}</p><choiceInteraction responseIdentifier="R2" maxChoices="0"><simpleChoice identifier="c">c</simpleChoice><simpleChoice identifier="d">d</simpleChoice></choiceInteraction>`,
        ),
      expect: {},
      status: 'unsupported',
      error: /composite item/,
    },
    {
      name: 'a gap match dragging images: unsupported by name',
      read: () =>
        item(
          [{ id: 'R', baseType: 'directedPair', cardinality: 'multiple', key: ['I G1'] }],
          `<gapMatchInteraction responseIdentifier="R"><gapImg identifier="I" matchMax="1"><object data="a.png" type="image/png"/></gapImg><p><gap identifier="G1"/></p></gapMatchInteraction>`,
        ),
      expect: {},
      status: 'unsupported',
      error: /drags images/,
    },
  ];

  for (const c of cases)
    it(c.name, () => {
      const parsed = c.read();
      if (c.error) {
        assert.equal(parsed.status, c.status ?? 'error');
        assert.match(parsed.message!, c.error);
        return;
      }
      assert.equal(parsed.status, 'ok', parsed.message ?? '');
      const q = parsed.question as unknown as Record<string, unknown>;
      for (const [field, value] of Object.entries(c.expect)) assert.deepEqual(q[field], value, field);
      if (c.warnings)
        assert.ok(
          parsed.warnings.some((w) => c.warnings!.test(w)),
          parsed.warnings.join('; '),
        );
    });
});
