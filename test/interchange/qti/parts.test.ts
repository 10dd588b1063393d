import assert from 'node:assert/strict';
import type { ParsedItem } from '../../../functions/src/interchange/model';
import { parseQtiXml } from '../../../functions/src/questionTypes/bankFormats';

// Match, associate, order and hot text interactions as matching, ordering and
// hottext questions: what the key gives, and what a mapping scored that the
// bank's scoring cannot (warned, never dropped silently).

const QTI21 = 'xmlns="http://www.imsglobal.org/xsd/imsqti_v2p1"';
const MAP_RESPONSE =
  '<responseProcessing template="http://www.imsglobal.org/question/qti_v2p1/rptemplates/map_response"/>';
const MATCH_CORRECT =
  '<responseProcessing template="http://www.imsglobal.org/question/qti_v2p1/rptemplates/match_correct"/>';

/** A QTI 2.1 item: its RESPONSE declaration (base type, key values, mapping entries), body and processing. */
function item(baseType: string, key: string[], body: string, options: { map?: string; rp?: string } = {}): ParsedItem {
  const xml = `<assessmentItem ${QTI21} identifier="x" title="T" adaptive="false" timeDependent="false">
    <responseDeclaration identifier="RESPONSE" cardinality="multiple" baseType="${baseType}">
      <correctResponse>${key.map((k) => `<value>${k}</value>`).join('')}</correctResponse>
      ${options.map ? `<mapping defaultValue="0">${options.map}</mapping>` : ''}
    </responseDeclaration>
    <itemBody><p>Question?</p>${body}</itemBody>${options.rp ?? MATCH_CORRECT}</assessmentItem>`;
  const [parsed] = parseQtiXml(xml).items;
  return parsed;
}

const choice = (id: string, content: string) =>
  `<simpleAssociableChoice identifier="${id}" matchMax="1">${content}</simpleAssociableChoice>`;
const MATCH = `<matchInteraction responseIdentifier="RESPONSE" maxAssociations="3">
  <simpleMatchSet>${choice('A', 'Canada')}${choice('B', 'Italy')}</simpleMatchSet>
  <simpleMatchSet>${choice('O', 'Ottawa')}${choice('R', 'Rome')}${choice('P', 'Paris')}</simpleMatchSet>
</matchInteraction>`;

describe('QTI match, associate, order and hot text interactions', () => {
  const cases: Array<{
    name: string;
    read: () => ParsedItem;
    expect: Record<string, unknown>;
    warns?: RegExp[];
    error?: RegExp;
  }> = [
    {
      name: 'a match: the first set the stems, the second the options (a distractor kept), the key pairs the matches',
      read: () => item('directedPair', ['A O', 'B R'], MATCH),
      expect: {
        question_type: 'matching',
        stems: ['Canada', 'Italy'],
        options: ['Ottawa', 'Rome', 'Paris'],
        matches: ['Ottawa', 'Rome'],
        marks: 1,
      },
      warns: [/scores each stem on its own/],
    },
    {
      name: 'a match scored by a mapping crediting a pair outside the key: warned, marks from the key’s values',
      read: () =>
        item('directedPair', ['A O', 'B R'], MATCH, {
          map: '<mapEntry mapKey="A O" mappedValue="1"/><mapEntry mapKey="B R" mappedValue="1"/><mapEntry mapKey="A P" mappedValue="0.5"/>',
          rp: MAP_RESPONSE,
        }),
      expect: { matches: ['Ottawa', 'Rome'], marks: 2 },
      warns: [/credit to pairs that are not in the key \(A P\)/],
    },
    {
      name: 'a match whose key names no choice of the sets: an error',
      read: () => item('directedPair', ['A X'], MATCH),
      expect: {},
      error: /"A X"/,
    },
    {
      name: 'an association: the first of each pair a stem, the second its match, the rest options to choose from',
      read: () =>
        item(
          'pair',
          ['Ea Mo', 'Ju Ga'],
          `<associateInteraction responseIdentifier="RESPONSE" maxAssociations="2">${choice('Ea', 'Earth')}${choice('Mo', 'Moon')}${choice('Ju', 'Jupiter')}${choice('Ga', 'Ganymede')}${choice('Ph', 'Phobos')}</associateInteraction>`,
        ),
      expect: {
        question_type: 'matching',
        stems: ['Earth', 'Jupiter'],
        options: ['Moon', 'Ganymede', 'Phobos'],
        matches: ['Moon', 'Ganymede'],
      },
      warns: [/directed pairs/],
    },
    {
      name: 'image-only choices alike in their alt text: the later one named by its file, with a warning',
      read: () =>
        item(
          'directedPair',
          ['A O', 'B R'],
          `<matchInteraction responseIdentifier="RESPONSE" maxAssociations="2">
            <simpleMatchSet>${choice('A', 'Canada')}${choice('B', 'Italy')}</simpleMatchSet>
            <simpleMatchSet>${choice('O', '<img src="img/flag-ca.png" alt="flag"/>')}${choice('R', '<img src="img/flag-it.png" alt="flag"/>')}</simpleMatchSet>
          </matchInteraction>`,
        ),
      expect: { options: ['flag', 'flag-it.png'], matches: ['flag', 'flag-it.png'] },
      warns: [/Two choices read as "flag": the later one became "flag-it\.png"/, /an image became its alt text/],
    },
    {
      name: 'an order: the options in the key’s order, scored whole',
      read: () =>
        item(
          'identifier',
          ['C', 'A', 'B'],
          '<orderInteraction responseIdentifier="RESPONSE"><simpleChoice identifier="A">two</simpleChoice><simpleChoice identifier="B">three</simpleChoice><simpleChoice identifier="C">one</simpleChoice></orderInteraction>',
        ),
      expect: { question_type: 'ordering', options: ['one', 'two', 'three'], ordering_score: 'all_or_nothing' },
    },
    {
      name: 'an order scored by a mapping: partial, with a warning',
      read: () =>
        item(
          'identifier',
          ['A', 'B'],
          '<orderInteraction responseIdentifier="RESPONSE"><simpleChoice identifier="A">one</simpleChoice><simpleChoice identifier="B">two</simpleChoice></orderInteraction>',
          { map: '<mapEntry mapKey="A" mappedValue="1"/>', rp: MAP_RESPONSE },
        ),
      expect: { ordering_score: 'partial' },
      warns: [/longest ordered subset/],
    },
    {
      name: 'hot texts: each phrase [[marked]] in the text, the key the right phrases, maxChoices 0 no limit',
      read: () =>
        item(
          'identifier',
          ['B', 'C'],
          '<hottextInteraction responseIdentifier="RESPONSE" maxChoices="0"><p>The <hottext identifier="A">cat</hottext> and the <hottext identifier="B">dog</hottext> <hottext identifier="C">ran</hottext>.</p></hottextInteraction>',
        ),
      expect: {
        question_type: 'hottext',
        question_text: '<p>Question?</p><p>The [[cat]] and the [[dog]] [[ran]].</p>',
        options: undefined,
        correct_answer: 'dog|ran',
        max_choices: undefined,
      },
    },
    {
      name: 'two hot texts with one phrase: an error naming it',
      read: () =>
        item(
          'identifier',
          ['A'],
          '<hottextInteraction responseIdentifier="RESPONSE" maxChoices="1"><p><hottext identifier="A">it</hottext> <hottext identifier="B">it</hottext></p></hottextInteraction>',
        ),
      expect: {},
      error: /Two hot texts read "it"/,
    },
  ];

  for (const c of cases)
    it(c.name, () => {
      const parsed = c.read();
      if (c.error) {
        assert.equal(parsed.status, 'error');
        assert.match(parsed.message!, c.error);
        return;
      }
      assert.equal(parsed.status, 'ok', parsed.message ?? '');
      const q = parsed.question as unknown as Record<string, unknown>;
      for (const [field, value] of Object.entries(c.expect)) assert.deepEqual(q[field], value, field);
      for (const warning of c.warns ?? [])
        assert.ok(
          parsed.warnings.some((w) => warning.test(w)),
          `${warning}: ${parsed.warnings.join(' / ')}`,
        );
    });
});
