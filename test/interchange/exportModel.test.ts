import assert from 'node:assert/strict';
import { mediaIdsIn, replaceMediaRefs } from '../../functions/src/interchange/exportModel';
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
