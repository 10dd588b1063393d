import assert from 'node:assert/strict';
import { sanitizeQuestionHtml } from '../../functions/src/questionTypes/html';
import { texToMathMl } from '../../functions/src/questionTypes/tex';

// Pure: TeX in an HTML text made MathML on write (Temml), and what stays as written.

/** The TeX as the annotation of its MathML keeps it. */
const annotated = (mathml: string, tex: string, display = false) =>
  `<math${display ? ' display="block"' : ''}><semantics>${mathml}<annotation encoding="application/x-tex">${tex}</annotation></semantics></math>`;

describe('questionTypes/tex texToMathMl', () => {
  // [what, HTML written, HTML stored once sanitized, problems]
  const cases: Array<[string, string, string, number]> = [
    [
      '\\( … \\) is an inline formula',
      '<p>\\(x^2\\)</p>',
      `<p>${annotated('<msup><mi>x</mi><mn>2</mn></msup>', 'x^2')}</p>`,
      0,
    ],
    [
      '$$ … $$ is a formula shown as a block',
      '<p>$$\\frac{a}{b}$$</p>',
      `<p>${annotated('<mfrac><mi>a</mi><mi>b</mi></mfrac>', '\\frac{a}{b}', true)}</p>`,
      0,
    ],
    ['\\[ … \\] too', '\\[\\sqrt{2}\\]', annotated('<msqrt><mn>2</mn></msqrt>', '\\sqrt{2}', true), 0],
    [
      'HTML escapes in the TeX are undone before it is read (a &lt; b is a < b)',
      '\\(a &lt; b\\)',
      annotated('<mrow><mi>a</mi><mo>&lt;</mo><mi>b</mi></mrow>', 'a &lt; b'),
      0,
    ],
    ['TeX that does not parse is kept as written, with a problem', '<p>\\(\\frac{a\\)</p>', '<p>\\(\\frac{a\\)</p>', 1],
    [
      '\\href is not trusted: kept as written',
      '\\(\\href{javascript:alert(1)}{x}\\)',
      '\\(\\href{javascript:alert(1)}{x}\\)',
      1,
    ],
    [
      'inside <code> and <pre> TeX is code',
      '<code>\\(x\\)</code><pre>$$y$$</pre>',
      '<code>\\(x\\)</code><pre>$$y$$</pre>',
      0,
    ],
    [
      'inside a formula already written it is left alone',
      '<math><mtext>\\(x\\)</mtext></math>',
      '<math><mtext>\\(x\\)</mtext></math>',
      0,
    ],
    ['a lone $ is money, not TeX', '<p>It costs $5 and $6.</p>', '<p>It costs $5 and $6.</p>', 0],
    ['empty delimiters are left as written', '<p>\\(\\) $$ $$</p>', '<p>\\(\\) $$ $$</p>', 0],
  ];
  for (const [what, written, stored, problems] of cases)
    it(what, () => {
      const made = texToMathMl(written);
      const { html, removed } = sanitizeQuestionHtml(made.html);
      assert.equal(html, stored);
      assert.deepEqual(removed, [], 'Temml writes nothing the sanitizer removes');
      assert.equal(made.problems.length, problems, made.problems.join('\n'));
    });

  it('names the TeX that could not be read and why, in one line', () => {
    const { problems } = texToMathMl('\\(\\frac{a\\)');
    assert.equal(problems.length, 1);
    assert.match(problems[0], /^The TeX "\\frac\{a" cannot be read \(.+\): kept as written$/);
    assert.doesNotMatch(problems[0], /\n/);
  });

  it('leaves a text without a delimiter as it is (Temml is not even loaded for it)', () => {
    const text = '<p>No formula here: 2 + 2 = 4</p>';
    assert.deepEqual(texToMathMl(text), { html: text, problems: [] });
  });

  it('a text made MathML is made MathML again as it is (an edit sends it back)', () => {
    const once = sanitizeQuestionHtml(texToMathMl('<p>\\(x^2\\) and $$y$$</p>').html).html;
    assert.equal(sanitizeQuestionHtml(texToMathMl(once).html).html, once);
  });
});
