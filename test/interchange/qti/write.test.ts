import assert from 'node:assert/strict';
import { once } from 'node:events';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { CP_NS, QTI_NS, TEST_PATH } from '../../../functions/src/interchange/qti/write';
import { parseQtiPackage, QtiPackageWriter, toQtiPackage } from '../../../functions/src/questionTypes/bankFormats';
import type { ExportQuestion, ExportTest } from '../../../functions/src/interchange/exportModel';
import { element, elements, innerXml, parseXml, textOf, type XmlElement } from '../../../functions/src/interchange/xml';
import {
  ALL,
  choice,
  essay,
  media,
  multi,
  multiAllOrNothing,
  numeric,
  numericExact,
  OGG,
  PNG,
  shortAnswer,
  trueFalse,
} from '../samples';
import { zipEntries } from '../zipEntries';

// The QTI 3.0 package: read back with yauzl, each XML file with the project's
// XML reader, and checked element by element.

const xmlOf = (entries: Map<string, Buffer>, path: string): XmlElement => {
  const bytes = entries.get(path);
  assert.ok(bytes, `${path} is in the package`);
  const text = bytes.toString('utf8');
  assert.doesNotMatch(text, /<!DOCTYPE/);
  return parseXml(text, path);
};

/** Every descendant element of this local name. */
function find(root: XmlElement, name: string): XmlElement[] {
  const found: XmlElement[] = [];
  const walk = (e: XmlElement) => {
    for (const c of elements(e)) {
      if (c.name === name) found.push(c);
      walk(c);
    }
  };
  walk(root);
  return found;
}

async function itemOf(q: typeof choice, withMedia = media) {
  const entries = await zipEntries(await toQtiPackage([q], withMedia));
  return { item: xmlOf(entries, `items/q-${q.id}.xml`), entries };
}

describe('interchange/export/qti toQtiPackage', () => {
  it('packs imsmanifest.xml (QTI 3.0 content packaging), one item per question, their media and a test', async () => {
    const entries = await zipEntries(await toQtiPackage(ALL, media));
    assert.deepEqual(
      [...entries.keys()].sort(),
      [
        'imsmanifest.xml',
        'items/media/img1/lens.png',
        'items/media/img2/lens.png',
        'items/media/snd1/tone.ogg',
        ...ALL.map((q) => `items/q-${q.id}.xml`),
        TEST_PATH,
      ].sort(),
    );
    assert.deepEqual(new Uint8Array(entries.get('items/media/img1/lens.png')!), PNG);
    assert.deepEqual(new Uint8Array(entries.get('items/media/snd1/tone.ogg')!), OGG);
    const manifest = xmlOf(entries, 'imsmanifest.xml');
    assert.equal(manifest.name, 'manifest');
    assert.equal(manifest.attrs.xmlns, CP_NS);
    assert.equal(textOf(find(manifest, 'schemaversion')[0]), '3.0.0');
    const resources = find(manifest, 'resource');
    assert.deepEqual(
      resources.map((r) => [r.attrs.type, r.attrs.href]),
      [['imsqti_test_xmlv3p0', TEST_PATH], ...ALL.map((q) => ['imsqti_item_xmlv3p0', `items/q-${q.id}.xml`])],
    );
    const choiceResource = resources[1];
    assert.deepEqual(
      elements(choiceResource, 'file').map((f) => f.attrs.href),
      ['items/q-mc1.xml', 'items/media/img1/lens.png', 'items/media/img2/lens.png'],
    );
    assert.deepEqual(
      resources.slice(1).map((r) => textOf(find(r, 'imsmd:value')[0])),
      ALL.map((q) => ({ easy: 'easy', medium: 'medium', hard: 'difficult' })[q.difficulty]),
    );
    for (const q of ALL) {
      const item = xmlOf(entries, `items/q-${q.id}.xml`);
      assert.equal(item.name, 'qti-assessment-item');
      assert.equal(item.attrs.xmlns, QTI_NS);
    }
  });

  it('writes a multiple_choice as a single choice with the marks as MAXSCORE, HTML text with relative media, per-option and general feedback', async () => {
    const { item } = await itemOf(choice);
    assert.equal(item.attrs.title, 'Focal: length');
    const declaration = find(item, 'qti-response-declaration')[0];
    assert.deepEqual(declaration.attrs, { identifier: 'RESPONSE', cardinality: 'single', 'base-type': 'identifier' });
    assert.deepEqual(find(declaration, 'qti-value').map(textOf), ['C1']);
    const maxScore = find(item, 'qti-outcome-declaration').find((o) => o.attrs.identifier === 'MAXSCORE')!;
    assert.equal(textOf(maxScore), '2');
    const body = element(item, 'qti-item-body')!;
    const text = elements(body)[0];
    assert.equal(text.attrs['data-text-format'], 'html');
    assert.equal(
      innerXml(text),
      '<p>Which lens {converges} = ~#\\ light?</p><p><img src="media/img1/lens.png" alt="a lens"/><img src="media/img2/lens.png"/></p>',
    );
    const interaction = find(item, 'qti-choice-interaction')[0];
    assert.equal(interaction.attrs['max-choices'], '1');
    const choices = elements(interaction, 'qti-simple-choice');
    assert.deepEqual(
      choices.map((c) => [c.attrs.identifier, c.children.filter((x) => typeof x === 'string').join('')]),
      [
        ['C1', 'Convex'],
        ['C2', 'Concave'],
        ['C3', '%50 of both'],
        ['C4', '[html]'],
      ],
    );
    // An html question's option is HTML: written as XHTML.
    assert.match(innerXml(choices[3]), /^\[html\]<b>neither<\/b>/);
    assert.deepEqual(
      choices.map((c) => (find(c, 'qti-feedback-inline')[0] ? textOf(find(c, 'qti-feedback-inline')[0]) : '')),
      choice.option_feedback,
    );
    const modal = find(item, 'qti-modal-feedback')[0];
    assert.equal(
      innerXml(elements(element(modal, 'qti-content-body')!)[0]),
      'See <i>chapter 3</i>: <img src="media/img1/lens.png"/>',
    );
  });

  it('writes a multiple_select with credits as a qti-mapping of points, and without as an all-or-nothing match', async () => {
    const { item } = await itemOf(multi);
    const declaration = find(item, 'qti-response-declaration')[0];
    assert.equal(declaration.attrs.cardinality, 'multiple');
    assert.deepEqual(find(declaration, 'qti-value').map(textOf), ['C1', 'C2']);
    const mapping = find(declaration, 'qti-mapping')[0];
    assert.deepEqual(mapping.attrs, { 'default-value': '0', 'lower-bound': '0', 'upper-bound': '2' });
    assert.deepEqual(
      elements(mapping).map((e) => [e.attrs['map-key'], e.attrs['mapped-value']]),
      [
        ['C1', '1'],
        ['C2', '1'],
        ['C3', '-0.66'],
        ['C4', '-2'],
      ],
    );
    assert.equal(find(item, 'qti-map-response').length, 1);
    assert.equal(find(item, 'qti-choice-interaction')[0].attrs['max-choices'], '0');
    assert.equal(elements(element(item, 'qti-item-body')!)[0].attrs['data-text-format'], 'plain');
    assert.equal(textOf(elements(element(item, 'qti-item-body')!)[0]), 'Which are primes?\nPick all.');
    const plain = (await itemOf(multiAllOrNothing)).item;
    assert.equal(find(plain, 'qti-mapping').length, 0);
    assert.equal(find(plain, 'qti-match').length, 1);
  });

  it('writes a true_false as a choice of TRUE and FALSE', async () => {
    const { item } = await itemOf(trueFalse);
    assert.deepEqual(
      find(item, 'qti-simple-choice').map((c) => c.attrs.identifier),
      ['TRUE', 'FALSE'],
    );
    assert.deepEqual(find(find(item, 'qti-response-declaration')[0], 'qti-value').map(textOf), ['TRUE']);
  });

  it('writes a short_answer as a text entry whose mapping holds the answer, the alternatives and the case sensitivity', async () => {
    const { item } = await itemOf(shortAnswer);
    assert.equal(find(item, 'qti-text-entry-interaction').length, 1);
    const entries = find(item, 'qti-map-entry');
    assert.deepEqual(
      entries.map((e) => [e.attrs['map-key'], e.attrs['mapped-value'], e.attrs['case-sensitive']]),
      [
        ['Paris', '2', 'true'],
        ['Paris, France', '2', 'true'],
        ['Lutèce', '0.66', 'true'],
      ],
    );
  });

  it('writes a numeric as a float text entry compared with qti-equal and each answer’s tolerance', async () => {
    const { item } = await itemOf(numeric);
    assert.equal(find(item, 'qti-response-declaration')[0].attrs['base-type'], 'float');
    const equals = find(item, 'qti-equal');
    assert.deepEqual(
      equals.map((e) => [e.attrs['tolerance-mode'], e.attrs.tolerance, textOf(element(e, 'qti-base-value')!)]),
      [
        ['absolute', '1000 1000', '3e5'],
        ['absolute', '1 1', '300'],
      ],
    );
    const scores = find(item, 'qti-response-else-if').map((b) => find(b, 'qti-set-outcome-value')[0]);
    assert.equal(find(scores[0], 'qti-variable')[0].attrs.identifier, 'MAXSCORE');
    assert.equal(textOf(scores[1]), '0.75');
    assert.equal(find((await itemOf(numericExact)).item, 'qti-equal')[0].attrs['tolerance-mode'], 'exact');
  });

  it('writes an essay as extended text, scored by a person, with its word limit', async () => {
    const { item, entries } = await itemOf(essay);
    const interaction = find(item, 'qti-extended-text-interaction')[0];
    assert.equal(interaction.attrs['data-max-words'], '250');
    const score = find(item, 'qti-outcome-declaration').find((o) => o.attrs.identifier === 'SCORE')!;
    assert.equal(score.attrs['external-scored'], 'human');
    assert.match(
      innerXml(elements(element(item, 'qti-item-body')!)[0]),
      /<audio controls="controls"><source src="media\/snd1\/tone.ogg"\/><\/audio>/,
    );
    assert.ok(entries.has('items/media/snd1/tone.ogg'));
  });

  it('writes an essay taking files as its extended text and an upload beside it, its count of files on the upload', async () => {
    const { item } = await itemOf({ ...essay, attachments: 3, attachments_required: 1 });
    assert.equal(find(item, 'qti-extended-text-interaction').length, 1);
    const [upload] = find(item, 'qti-upload-interaction');
    assert.deepEqual(upload.attrs, {
      'response-identifier': 'FILE',
      'data-attachments': '3',
      'data-attachments-required': '1',
    });
    const file = find(item, 'qti-response-declaration').find((d) => d.attrs.identifier === 'FILE')!;
    assert.equal(file.attrs['base-type'], 'file');
    assert.equal(find((await itemOf(essay)).item, 'qti-upload-interaction').length, 0);
  });

  it('marks the text of a question without a title data-untitled (the item’s title is made from it)', async () => {
    const wrapper = async (q: typeof choice) => elements(element((await itemOf(q)).item, 'qti-item-body')!)[0].attrs;
    assert.deepEqual(await wrapper({ ...trueFalse, title: null }), {
      'data-text-format': 'plain',
      'data-untitled': 'true',
    });
    assert.deepEqual(await wrapper({ ...trueFalse, title: 'Light' }), { 'data-text-format': 'plain' });
  });

  it('makes a bank export’s test one section per run of one folder, untitled for questions in none', async () => {
    const entries = await zipEntries(await toQtiPackage(ALL, media));
    const test = xmlOf(entries, TEST_PATH);
    const sections = find(test, 'qti-assessment-section');
    assert.deepEqual(
      sections.map((s) => [s.attrs.title, elements(s, 'qti-assessment-item-ref').map((r) => r.attrs.href)]),
      [
        ['Science / Physics/Optics', ['items/q-mc1.xml', 'items/q-ms1.xml']],
        ['', ['items/q-ms2.xml']],
        ['Science / Physics/Optics', ['items/q-tf1.xml', 'items/q-sa1.xml', 'items/q-nu1.xml', 'items/q-nu2.xml']],
        ['Essays', ['items/q-es1.xml']],
      ],
    );
  });

  it('makes a test’s structure: its questions in order by folder, then a section per pool with qti-selection', async () => {
    const test: ExportTest = {
      id: 't1',
      title: 'Optics quiz',
      question_ids: ['tf1', 'mc1', 'es1'],
      shuffle: true,
      pools: [{ category: ['Numbers'], difficulty: 'hard', draw: 1, question_ids: ['nu1', 'nu2'] }],
    };
    const entries = await zipEntries(
      await toQtiPackage([trueFalse, choice, essay, numeric, numericExact], media, test),
    );
    const xml = xmlOf(entries, TEST_PATH);
    assert.equal(xml.attrs.title, 'Optics quiz');
    const sections = find(xml, 'qti-assessment-section');
    assert.deepEqual(
      sections.map((s) => [
        s.attrs.title,
        element(s, 'qti-selection')?.attrs.select,
        element(s, 'qti-ordering')?.attrs.shuffle,
        elements(s, 'qti-assessment-item-ref').map((r) => r.attrs.identifier),
      ]),
      [
        ['Science / Physics/Optics', undefined, 'true', ['q-tf1', 'q-mc1']],
        ['Essays', undefined, 'true', ['q-es1']],
        ['Numbers', '1', 'true', ['q-nu1', 'q-nu2']],
      ],
    );
    const manifest = xmlOf(entries, 'imsmanifest.xml');
    assert.equal(find(manifest, 'dependency').length, 5);
  });

  it('stores a media file several questions share once', async () => {
    const entries = await zipEntries(await toQtiPackage([choice, { ...choice, id: 'mc2' }], media));
    assert.equal([...entries.keys()].filter((k) => k === 'items/media/img1/lens.png').length, 1);
    assert.match(entries.get('items/q-mc2.xml')!.toString(), /src="media\/img1\/lens.png"/);
  });

  it('waits for its reader: add() does not finish while nothing reads the package', async () => {
    const writer = new QtiPackageWriter();
    const many = Array.from({ length: 40 }, (_, i) => ({ ...essay, id: `e${i}`, question_text: 'x'.repeat(70_000) }));
    let added = false;
    const adding = writer.add(many, new Map()).then(() => {
      added = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.equal(added, false);
    const chunks: Buffer[] = [];
    writer.output.on('data', (c: Buffer) => chunks.push(c));
    await adding;
    writer.finish();
    await once(writer.output, 'end');
    assert.equal((await zipEntries(Buffer.concat(chunks))).size, 42);
  });

  it('lets go of each file once the zip has written it: a package of 60 MB of media holds a few MB', async () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    // Buffers' memory is given back after a collection, not always during it: collect until it has been.
    const settled = async () => {
      for (let i = 0; i < 4; i++) {
        gc();
        await new Promise((resolve) => setImmediate(resolve));
      }
      return process.memoryUsage().arrayBuffers;
    };
    const writer = new QtiPackageWriter();
    writer.output.resume();
    const ended = once(writer.output, 'end');
    const before = await settled();
    for (let i = 0; i < 60; i++) {
      const id = `org.m${i}`;
      const q = { ...essay, id: `e${i}`, text_format: 'html' as const, question_text: `<img src="/api/media/${id}">` };
      const bytes = new Uint8Array(1024 * 1024).fill(i);
      await writer.add([q], new Map([[id, { name: `m${i}.png`, content_type: 'image/png', bytes }]]));
    }
    const held = (await settled()) - before;
    writer.finish();
    await ended;
    assert.ok(held < 20 * 1024 * 1024, `${(held / 1024 / 1024).toFixed(1)} MB of file bytes held`);
  });
});

describe('QTI 3.0 round trip of the types with parts: written, read back equal', () => {
  const base = {
    tolerance: null,
    max_words: null,
    marks: 4,
    difficulty: 'easy' as const,
    category: null,
    title: 'Parts',
  };
  const CASES: Array<{ name: string; q: ExportQuestion }> = [
    {
      name: 'matching (a distractor option, an option matched twice)',
      q: {
        ...base,
        id: 'm1',
        question_type: 'matching',
        question_text: 'Match each country with its capital.',
        stems: ['Canada', 'Italy', 'Vatican & co'],
        options: ['Ottawa', 'Rome', 'Paris <old>'],
        matches: ['Ottawa', 'Rome', 'Rome'],
        correct_answer: '["Ottawa","Rome","Rome"]',
      },
    },
    {
      name: 'ordering, all or nothing',
      q: {
        ...base,
        id: 'o1',
        question_type: 'ordering',
        question_text: 'Put the periods in order.',
        options: ['Prehistory', 'Antiquity', 'Middle Ages'],
        ordering_score: 'all_or_nothing',
        correct_answer: '["Prehistory","Antiquity","Middle Ages"]',
      },
    },
    {
      name: 'ordering, partial (carried as data-ordering-score)',
      q: {
        ...base,
        id: 'o2',
        question_type: 'ordering',
        text_format: 'html',
        question_text: '<p>Order <b>these</b>.</p>',
        options: ['one', 'two', 'three', 'four'],
        ordering_score: 'partial',
        correct_answer: '["one","two","three","four"]',
      },
    },
    {
      name: 'gap_fill with text, numeric and select gaps, weights and further answers',
      q: {
        ...base,
        id: 'g1',
        question_type: 'gap_fill',
        question_text: 'Water is [[1]] and boils at [[2]] °C; its formula is [[3]].',
        options: [],
        gaps: [
          {
            kind: 'select',
            answers: [
              { answer: 'wet', credit: 100 },
              { answer: 'damp', credit: 50 },
            ],
            options: ['dry', 'wet', 'damp'],
          },
          {
            kind: 'numeric',
            answers: [
              { answer: '100', credit: 100, tolerance: 0.5 },
              { answer: '212', credit: 25 },
            ],
            weight: 2,
          },
          {
            kind: 'text',
            answers: [
              { answer: 'H2O', credit: 100 },
              { answer: 'h2o', credit: 50 },
            ],
            case_sensitive: true,
          },
        ],
        correct_answer: '["wet","100","H2O"]',
      },
    },
    {
      name: 'gap_fill with drag gaps (a distractor chip) beside a typed one, in HTML',
      q: {
        ...base,
        id: 'g2',
        question_type: 'gap_fill',
        text_format: 'html',
        question_text: '<p>He killed her [[1]] and burned her [[2]]; the king was [[3]].</p>',
        options: [],
        gaps: [
          { kind: 'drag', answers: [{ answer: 'family', credit: 100 }] },
          { kind: 'drag', answers: [{ answer: 'castle', credit: 100 }] },
          { kind: 'text', answers: [{ answer: 'wicked', credit: 100 }], case_sensitive: false },
        ],
        drag_options: ['family', 'castle', 'sword'],
        drag_reusable: false,
        correct_answer: '["family","castle","wicked"]',
      },
    },
    {
      name: 'gap_fill of numeric gaps only, weighted 1 and 3',
      q: {
        ...base,
        id: 'g3',
        question_type: 'gap_fill',
        question_text: '[[2]] + [[1]]',
        options: [],
        gaps: [
          { kind: 'numeric', answers: [{ answer: '1701', credit: 100 }], weight: 3 },
          {
            kind: 'numeric',
            answers: [
              { answer: '32', credit: 100 },
              { answer: '0', credit: 50, tolerance: 2 },
            ],
          },
        ],
        correct_answer: '["1701","32"]',
      },
    },
    {
      name: 'gap_fill of reusable drag gaps only',
      q: {
        ...base,
        id: 'g4',
        question_type: 'gap_fill',
        question_text: 'Hot [[1]], hotter [[2]].',
        options: [],
        gaps: [
          { kind: 'drag', answers: [{ answer: 'fire', credit: 100 }] },
          {
            kind: 'drag',
            answers: [
              { answer: 'fire', credit: 100 },
              { answer: 'sun', credit: 50 },
            ],
          },
        ],
        drag_options: ['fire', 'sun', 'ice'],
        drag_reusable: true,
        correct_answer: '["fire","fire"]',
      },
    },
    {
      name: 'hottext with two right phrases and a limit',
      q: {
        ...base,
        id: 'h1',
        question_type: 'hottext',
        question_text: 'Sponsors [[who bought]] time [[includes]] firms [[whose]] names & marks.',
        options: ['who bought', 'includes', 'whose'],
        correct_answer: 'includes|whose',
        max_choices: 2,
      },
    },
    {
      name: 'hottext in HTML, no limit',
      q: {
        ...base,
        id: 'h2',
        question_type: 'hottext',
        text_format: 'html',
        question_text: '<p>A [[response declaration]] and an <i>[[outcome declaration]]</i>.</p>',
        options: ['response declaration', 'outcome declaration'],
        correct_answer: 'response declaration',
      },
    },
  ];

  /** The fields a draft carries back, as the question has them (absent when null). */
  const carried = (q: ExportQuestion) =>
    Object.fromEntries(
      Object.entries({
        question_type: q.question_type,
        question_text: q.question_text,
        text_format: q.text_format ?? 'plain',
        title: q.title,
        marks: q.marks,
        difficulty: q.difficulty,
        // The bank derives a hottext's options from its text and stores a gap fill's as none.
        options: ['gap_fill', 'hottext'].includes(q.question_type) ? undefined : q.options,
        correct_answer: q.question_type === 'hottext' ? q.correct_answer : undefined,
        stems: q.stems,
        matches: q.matches,
        ordering_score: q.ordering_score,
        gaps: q.gaps,
        drag_options: q.drag_options,
        drag_reusable: q.drag_reusable,
        max_choices: q.max_choices,
      }).filter(([, v]) => v !== undefined && v !== null),
    );

  it('writes each as its QTI 3.0 interaction: match, order, text entries / inline choices / gap match, hot text', async () => {
    const interactions = async (q: ExportQuestion) => {
      const entries = await zipEntries(await toQtiPackage([q]));
      const root = xmlOf(entries, `items/q-${q.id}.xml`);
      const names = new Set<string>();
      const walk = (e: XmlElement) => {
        for (const c of elements(e)) {
          if (c.name.endsWith('-interaction') || c.name === 'qti-gap' || c.name === 'qti-hottext') names.add(c.name);
          walk(c);
        }
      };
      walk(root);
      return [...names].sort();
    };
    const byId = (id: string) => CASES.find((c) => c.q.id === id)!.q;
    assert.deepEqual(await interactions(byId('m1')), ['qti-match-interaction']);
    assert.deepEqual(await interactions(byId('o1')), ['qti-order-interaction']);
    assert.deepEqual(await interactions(byId('g1')), ['qti-inline-choice-interaction', 'qti-text-entry-interaction']);
    assert.deepEqual(await interactions(byId('g2')), [
      'qti-gap',
      'qti-gap-match-interaction',
      'qti-text-entry-interaction',
    ]);
    assert.deepEqual(await interactions(byId('h1')), ['qti-hottext', 'qti-hottext-interaction']);
    const mixed = (await zipEntries(await toQtiPackage([byId('g2')]))).get('items/q-g2.xml')!.toString('utf8');
    assert.match(mixed, /<!-- text entries and drop-downs stand inside the gap match/);
  });

  for (const { name, q } of CASES)
    it(name, async () => {
      const bank = await parseQtiPackage(await toQtiPackage([q]));
      const [item] = bank.items;
      assert.equal(item.status, 'ok', item.message ?? '');
      assert.deepEqual(item.warnings, []);
      assert.deepEqual(item.question, carried(q));
    });
});
