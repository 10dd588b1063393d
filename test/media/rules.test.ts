import assert from 'node:assert/strict';
import { mediaUrl, newMediaId, organizationOfMediaId, questionShowsMedia } from '../../functions/src/media/rules';

describe('media: ids', () => {
  it('names the organization in the id, as attempt ids do', () => {
    const id = newMediaId('acme');
    assert.match(id, /^acme\.[0-9a-f-]{36}$/);
    assert.equal(organizationOfMediaId(id), 'acme');
  });
  it('finds no organization in an id without one', () => {
    for (const id of ['nodot', '.abc', 'abc.']) assert.equal(organizationOfMediaId(id), undefined);
  });
});

describe('media: questionShowsMedia', () => {
  const id = 'acme.0b6f2b8e-8d4e-4a57-9b52-1f0c0e0f0a11';
  const img = `<p><img src="${mediaUrl(id)}" alt=""></p>`;
  const question = (extra: Record<string, unknown>) => ({ id: 'q1', question_text: 'Plain', options: ['a'], ...extra });

  it('finds the media in the text while the question is being answered', () =>
    assert.equal(questionShowsMedia(question({ question_text: img }), id, 'question'), true));
  it('finds it in an option too', () =>
    assert.equal(questionShowsMedia(question({ options: ['a', img] }), id, 'question'), true));
  it('does not show feedback media while the question is being answered', () => {
    assert.equal(questionShowsMedia(question({ feedback: img }), id, 'question'), false);
    assert.equal(questionShowsMedia(question({ option_feedback: [img] }), id, 'question'), false);
  });
  it('shows feedback media in a released review', () => {
    assert.equal(questionShowsMedia(question({ feedback: img }), id, 'review'), true);
    assert.equal(questionShowsMedia(question({ option_feedback: ['', img] }), id, 'review'), true);
  });
  it('does not show media named only in the title, which no taker sees, while taken nor in a review', () => {
    assert.equal(questionShowsMedia(question({ title: img }), id, 'question'), false);
    assert.equal(questionShowsMedia(question({ title: img }), id, 'review'), false);
    assert.equal(questionShowsMedia(question({ title: img, feedback: img }), id, 'review'), true);
  });
  it('does not take an id that merely begins another for it', () => {
    const longer = question({ question_text: `<img src="${mediaUrl(id)}0">` });
    assert.equal(questionShowsMedia(longer, id, 'question'), false);
    const shorter = question({ question_text: img });
    assert.equal(questionShowsMedia(shorter, id.slice(0, -1), 'question'), false);
  });
  it('accepts the URL followed by a query or a quote', () => {
    assert.equal(questionShowsMedia(question({ question_text: `x ${mediaUrl(id)}?a=1` }), id, 'question'), true);
  });
});
