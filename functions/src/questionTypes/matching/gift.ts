import { gift } from '../../interchange';
import type { ExportQuestion, QuestionDraft } from '../../interchange';

// A matching in GIFT: `{=a -> x =b -> y = -> z}` → stems [a, b], options [x, y, z] (z, without a
// stem, a distractor), matches [x, y]; the stems in the question's format turned to text, the
// matches plain.

export const matchingGift: gift.GiftMapping = {
  reader: { kind: 'Matching', read: matching },
  fieldTags: [],
  write: matchingAnswers,
};

/**
 * `=stem -> option` pairs, split at the first "->" as Moodle does: the stem in the question's
 * format turned to text, the option plain; a pair without a stem is a distractor.
 */
function matching({ answers, inherited, warn, rich }: gift.GiftReading): Partial<QuestionDraft> {
  const stems: string[] = [];
  const matches: string[] = [];
  const options: string[] = [];
  const ignored: string[] = [];
  answers.forEach((a, i) => {
    const arrow = a.text.indexOf(gift.ARROW);
    if (a.prefix !== '=' || arrow < 0)
      throw new gift.Refusal(
        `Answer ${i + 1} ("${a.text.trim()}") is not a pair "=stem -> match", as a matching question's are`,
      );
    if (a.weight !== null || gift.hasFeedback(a)) ignored.push(`answer ${i + 1}`);
    const stem = gift.optionText({ ...a, text: a.text.slice(0, arrow) }, inherited, `Stem ${i + 1}`, warn, rich);
    const option = gift.optionText(
      { ...a, format: 'plain', text: a.text.slice(arrow + gift.ARROW.length) },
      null,
      `Match ${i + 1}`,
      warn,
    );
    if (option === '') throw new gift.Refusal(`Answer ${i + 1} ("${a.text.trim()}") has no match after "->"`);
    if (!options.includes(option)) options.push(option);
    if (stem === '') return;
    stems.push(stem);
    matches.push(option);
  });
  if (ignored.length > 0)
    warn(`Weights and feedback of a matching question's pairs are not carried (${ignored.join(', ')})`);
  if (stems.length === 0) throw new gift.Refusal('No pair has a stem to match');
  return { stems, options, matches };
}

/**
 * `=stem -> match` per stem, then `=-> option` for each option no stem matches (Moodle's
 * distractor). Moodle splits at the first "->", so a stem holding one cannot be written.
 */
function matchingAnswers(q: ExportQuestion): gift.GiftWritten | gift.GiftCannot {
  const stems = q.stems ?? [];
  const matches = q.matches ?? [];
  if (stems.some((s) => s.includes(gift.ARROW)))
    return { cannot: 'a matching question with "->" in a stem, which GIFT reads as the end of the stem' };
  const { distractors, reordered } = gift.matchingDistractors(q);
  const notes: string[] = [];
  // GIFT's matches are plain text: an html question's is written as its text.
  const matchText = (option: string): string => {
    if (!gift.isHtml(q)) return option;
    const line = gift.htmlLine(option);
    if (line.images.length > 0 || line.formatting.length > 0)
      notes.push(`the option "${line.text}" is written as its text: GIFT's matches are plain text`);
    return line.text;
  };
  const pair = (stem: string, option: string) =>
    `\t=${stem === '' ? '' : gift.answerText(q, stem)} -> ${gift.giftEscape(matchText(option))}`;
  if (reordered) notes.push("the options' order is not carried: GIFT lists the matches, then the distractors");
  return {
    body: [...stems.map((s, i) => pair(s, matches[i] ?? '')), ...distractors.map((d) => pair('', d))].join('\n'),
    notes,
  };
}
