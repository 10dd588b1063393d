import assert from 'node:assert/strict';
import { mediaIdsIn, mediaOfQuestion, replaceMediaRefs } from '../../functions/src/interchange/exportModel';
import { newMediaId } from '../../functions/src/media/rules';

// What the writers take from a question's HTML: the media it refers to.

describe('interchange/export/types mediaIdsIn', () => {
  it('finds a media id whole as the import makes it (the organization, a dot, a UUID)', () => {
    const id = newMediaId('org-1');
    const html = `<p><img src="/api/media/${id}" alt="a"><audio><source src="/api/media/${id}"></audio></p>`;
    assert.deepEqual(mediaIdsIn(html), [id]);
    assert.equal(
      replaceMediaRefs(html, (found) => (found === id ? '@@PLUGINFILE@@/a.png' : undefined)),
      '<p><img src="@@PLUGINFILE@@/a.png" alt="a"><audio><source src="@@PLUGINFILE@@/a.png"></audio></p>',
    );
  });
});

describe('interchange/exportModel mediaOfQuestion', () => {
  const base = {
    id: 'q1',
    question_text: 'Where is the heart?',
    options: [],
    correct_answer: '[1]',
    tolerance: null,
    max_words: null,
    marks: 1,
    difficulty: 'easy' as const,
    category: null,
  };
  it('gathers a hotspot’s image, whatever its text format, with the media of its HTML', () => {
    const [image, inText] = [newMediaId('org-1'), newMediaId('org-1')];
    const hotspot = {
      ...base,
      question_type: 'hotspot' as const,
      image: { src: `/api/media/${image}`, width: 4, height: 3 },
    };
    assert.deepEqual(mediaOfQuestion(hotspot), [image]);
    assert.deepEqual(
      mediaOfQuestion({ ...hotspot, text_format: 'html', question_text: `<p><img src="/api/media/${inText}"></p>` }),
      [inText, image],
    );
    assert.deepEqual(
      mediaOfQuestion({ ...hotspot, image: { src: 'https://example.org/a.png', width: 4, height: 3 } }),
      [],
    );
  });
});
