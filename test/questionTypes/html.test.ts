import assert from 'node:assert/strict';
import {
  isAllowedMediaSource,
  isBlankHtml,
  sanitizeQuestionHtml,
  unresolvedMedia,
} from '../../functions/src/questionTypes/html';

// Pure: the allow-list HTML question texts are cut down to on write.

describe('questions/html sanitizeQuestionHtml', () => {
  it('keeps the allowed tags and attributes as they are', () => {
    const html =
      '<h2>Title</h2><p>Some <b>bold</b>, <i>italic</i>, <em>em</em>, <strong>strong</strong>, <u>u</u>, H<sub>2</sub>O, x<sup>2</sup></p>' +
      '<ul><li>one</li></ul><ol><li>two</li></ol><blockquote>q</blockquote><pre><code>let a = 1;</code></pre>' +
      '<table><thead><tr><th>h</th></tr></thead><tbody><tr><td colspan="2">c</td></tr></tbody></table>' +
      '<div><span>s</span></div><img src="/api/media/m_1" alt="a map" width="200" height="100" />' +
      '<audio controls src="/api/media/sound"><source src="https://example.org/a.ogg" type="audio/ogg" /></audio>' +
      '<video controls width="320" height="180"><source src="/api/media/c1.film" type="video/mp4" /></video>';
    assert.deepEqual(sanitizeQuestionHtml(html), { html, removed: [] });
  });

  it('keeps a video from our media route with its controls, and strips what would play it by itself or run script', () => {
    const { html, removed } = sanitizeQuestionHtml(
      '<video controls autoplay poster="javascript:x()" onplay="x()"><source src="javascript:alert(1)" /><source src="/api/media/c1.v" type="video/webm" /></video>',
    );
    assert.equal(html, '<video controls><source src="/api/media/c1.v" type="video/webm" /></video>');
    assert.deepEqual(removed, [
      'autoplay attribute',
      'poster attribute',
      'onplay attribute',
      'source source javascript:alert(1) (only /api/media/… and http(s) URLs are kept)',
    ]);
    assert.equal(isBlankHtml(html), false);
  });

  it('strips <script> with its content, and says so', () => {
    const { html, removed } = sanitizeQuestionHtml('<p>2 + 2?</p><script>alert(document.cookie)</script>');
    assert.equal(html, '<p>2 + 2?</p>');
    assert.deepEqual(removed, ['<script>']);
  });

  it('strips event handlers such as onerror, keeping the element', () => {
    const { html, removed } = sanitizeQuestionHtml(
      '<img src="https://example.org/a.png" onerror="alert(1)" onload="x()">',
    );
    assert.equal(html, '<img src="https://example.org/a.png" />');
    assert.deepEqual(removed, ['onerror attribute', 'onload attribute']);
  });

  it('strips javascript: links (any case) and relative links, keeping the text; http(s) and mailto links get rel and target', () => {
    const { html, removed } = sanitizeQuestionHtml(
      '<a href="JaVaScRiPt:alert(1)">x</a> <a href="/elsewhere">y</a> <a href="https://example.org" target="_self" rel="opener">z</a> <a href="mailto:t@example.org">m</a>',
    );
    assert.equal(
      html,
      '<a>x</a> <a>y</a> <a href="https://example.org" rel="noopener noreferrer nofollow" target="_blank">z</a> ' +
        '<a href="mailto:t@example.org" rel="noopener noreferrer nofollow" target="_blank">m</a>',
    );
    assert.equal(removed.length, 2);
    assert.match(removed[0], /^link javascript:/i);
  });

  it('keeps a link to our media route, of the id form the service makes, and no other relative link', () => {
    const media = '/api/media/demo-academy.0b5e3c1a-1111-4c4c-8888-000000000001';
    const { html, removed } = sanitizeQuestionHtml(
      `<a href="${media}">Listen</a> <a href="/api/media/x">a</a> <a href="/api/media/${'demo.0b5e3c1a-1111-4c4c-8888-000000000001'}/../../users">b</a> ` +
        `<a href="${media}?attempt_id=1">c</a> <a href="//evil.example${media}">d</a>`,
    );
    assert.equal(
      html,
      `<a href="${media}" rel="noopener noreferrer nofollow" target="_blank">Listen</a> <a>a</a> <a>b</a> <a>c</a> <a>d</a>`,
    );
    assert.equal(removed.length, 4);
  });

  it('strips svg, iframe, object and style elements, and style attributes', () => {
    const { html, removed } = sanitizeQuestionHtml(
      '<p style="color:red">a</p><svg onload="alert(1)"><circle r="1"/></svg><iframe src="https://example.org"></iframe>' +
        '<object data="x.swf"></object><style>p { display: none }</style>',
    );
    assert.equal(html, '<p>a</p>');
    for (const what of ['style attribute', '<svg>', '<iframe>', '<object>', '<style>'])
      assert.ok(removed.includes(what), what);
  });

  it('drops images whose source is a data: URL, a placeholder or another relative path', () => {
    const { html, removed } = sanitizeQuestionHtml(
      '<img src="data:image/png;base64,AAAA"><img src="@@PLUGINFILE@@/a.png"><img src="../x.png"><img src="/api/media/ok">',
    );
    assert.equal(html, '<img src="/api/media/ok" />');
    assert.equal(removed.length, 3);
  });

  it('escapes text so that it stays text, and gives the same result when sanitized again', () => {
    const once = sanitizeQuestionHtml('a < b & c <br> "quoted"').html;
    assert.equal(once, 'a &lt; b &amp; c <br /> "quoted"');
    assert.equal(sanitizeQuestionHtml(once).html, once);
  });
});

describe('questions/html sanitizeQuestionHtml: MathML', () => {
  // [what, HTML written, HTML stored, what is said removed]
  const cases: Array<[string, string, string, string[]]> = [
    [
      'MathML Core elements and their attributes are kept as they are',
      '<p>E = <math display="block"><mi>m</mi><msup><mi mathvariant="normal">c</mi><mn>2</mn></msup></math></p>',
      '<p>E = <math display="block"><mi>m</mi><msup><mi mathvariant="normal">c</mi><mn>2</mn></msup></math></p>',
      [],
    ],
    [
      'fractions, roots, scripts, tables, operators that stretch',
      '<math><mfrac linethickness="0"><mn>1</mn><msqrt><mi>x</mi></msqrt></mfrac><mroot><mi>y</mi><mn>3</mn></mroot>' +
        '<msubsup><mi>a</mi><mi>i</mi><mn>2</mn></msubsup><mtable><mtr><mtd><mo stretchy="false">(</mo></mtd></mtr></mtable></math>',
      '<math><mfrac linethickness="0"><mn>1</mn><msqrt><mi>x</mi></msqrt></mfrac><mroot><mi>y</mi><mn>3</mn></mroot>' +
        '<msubsup><mi>a</mi><mi>i</mi><mn>2</mn></msubsup><mtable><mtr><mtd><mo stretchy="false">(</mo></mtd></mtr></mtable></math>',
      [],
    ],
    [
      'a QTI item’s prefixed m:math is kept unprefixed, its namespace declaration dropped without a word',
      '<m:math xmlns:m="http://www.w3.org/1998/Math/MathML"><m:mrow><m:mi>x</m:mi><m:mo>=</m:mo><m:mn>2</m:mn></m:mrow></m:math>',
      '<math><mrow><mi>x</mi><mo>=</mo><mn>2</mn></mrow></math>',
      [],
    ],
    [
      'empty elements closed with /> (as XHTML writes them) stay empty',
      '<math><mmultiscripts><mi>X</mi><none/><mi>a</mi><mprescripts/><mi>b</mi><none/></mmultiscripts><mspace width="1em"/></math>',
      '<math><mmultiscripts><mi>X</mi><none /><mi>a</mi><mprescripts /><mi>b</mi><none /></mmultiscripts><mspace width="1em" /></math>',
      [],
    ],
    [
      'no href, event handler, style or class on MathML',
      '<math><mi href="javascript:alert(1)" onclick="x()" style="color:red" class="c">x</mi></math>',
      '<math><mi>x</mi></math>',
      ['href attribute', 'onclick attribute', 'style attribute', 'class attribute'],
    ],
    [
      'an annotation (the TeX) is kept; an annotation-xml (HTML inside a formula) goes whole',
      '<math><semantics><mi>x</mi><annotation encoding="application/x-tex">x</annotation>' +
        '<annotation-xml encoding="text/html"><p onclick="x()">x</p></annotation-xml></semantics></math>',
      '<math><semantics><mi>x</mi><annotation encoding="application/x-tex">x</annotation></semantics></math>',
      ['<annotation-xml>'],
    ],
    [
      'MathML elements outside Core (maction, which runs on a click) lose their tag and keep their text',
      '<math><maction actiontype="toggle"><mi>a</mi><mi>b</mi></maction></math>',
      '<math><mi>a</mi><mi>b</mi></math>',
      ['<maction>'],
    ],
  ];
  for (const [what, written, stored, removed] of cases)
    it(what, () => {
      assert.deepEqual(sanitizeQuestionHtml(written), { html: stored, removed });
      assert.equal(sanitizeQuestionHtml(stored).html, stored, 'sanitized again, the same');
    });
});

describe('questions/html helpers', () => {
  it('isAllowedMediaSource: our media route and http(s) URLs only', () => {
    assert.ok(isAllowedMediaSource('/api/media/abc-1_2'));
    assert.ok(isAllowedMediaSource('https://example.org/a.png'));
    for (const bad of [
      '/api/media/../x',
      'data:image/png;base64,AA',
      '//example.org/a.png',
      'ftp://x/a',
      '@@PLUGINFILE@@/a.png',
    ])
      assert.equal(isAllowedMediaSource(bad), false, bad);
  });

  it('unresolvedMedia lists the @@PLUGINFILE@@ references left', () => {
    assert.deepEqual(unresolvedMedia('<img src="@@PLUGINFILE@@/a%20b.png"> <img src="@@PLUGINFILE@@/a%20b.png">'), [
      '@@PLUGINFILE@@/a%20b.png',
    ]);
    assert.deepEqual(unresolvedMedia('<img src="/api/media/x">'), []);
  });

  it('isBlankHtml: no text, image or sound', () => {
    assert.ok(isBlankHtml('<p> </p><br />'));
    assert.ok(isBlankHtml('<p>&nbsp;</p>'));
    assert.equal(isBlankHtml('<img src="/api/media/x" />'), false);
    assert.equal(isBlankHtml('<p>x</p>'), false);
  });
});
