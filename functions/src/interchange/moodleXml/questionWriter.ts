import {
  htmlFields,
  isHtml,
  mediaIdsIn,
  replaceMediaRefs,
  safeFileName,
  type ExportMedia,
  type ExportQuestion,
} from '../exportModel';
import { formatNumber } from '../conventions';
import { element, htmlCharRefs, textElement } from '../xmlText';

// Pure: one question being written as Moodle XML, as every type's writer (its type's moodleXml.ts)
// is given it: the question, and the elements Moodle's types are made of (formatted texts with
// their files, answers), so that a type's writer says only what is its own.

const MEDIA_PLACEHOLDER = '@@PLUGINFILE@@/';

const fraction = (credit: number) => formatNumber(credit);

/**
 * A question's files: each media id it refers to gets a name unique within the
 * question (Moodle keeps a question's files in one area per text).
 */
function fileNames(q: ExportQuestion, media: ExportMedia): Map<string, string> {
  const names = new Map<string, string>();
  if (!isHtml(q)) return names;
  const taken = new Set<string>();
  const ids = htmlFields(q).flatMap(mediaIdsIn);
  for (const id of ids) {
    const file = media.get(id);
    if (!file || names.has(id)) continue;
    const base = safeFileName(file.name);
    let name = base;
    for (let n = 2; taken.has(name.toLowerCase()); n += 1) name = base.replace(/(\.[^.]*)?$/, `-${n}$1`);
    taken.add(name.toLowerCase());
    names.set(id, name);
  }
  return names;
}

/** A file name in a reference, as Moodle writes it (PHP's rawurlencode): a space or parenthesis cannot end it early. */
const rawUrlEncode = (name: string): string =>
  encodeURIComponent(name).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/** One question being written: it, the media it may carry, and its files' names. */
export class QuestionWriter {
  readonly files: Map<string, string>;

  constructor(
    readonly q: ExportQuestion,
    readonly media: ExportMedia,
  ) {
    this.files = fileNames(q, media);
  }

  /** Whether the question is HTML (its texts and options are), else plain text. */
  get html(): boolean {
    return isHtml(this.q);
  }

  /** A text element with its format, its media rewritten to @@PLUGINFILE@@ and carried as <file> children. */
  formattedText(tag: string, text: string, extra = ''): string {
    if (!this.html) return element(tag, { format: 'plain_text' }, textElement('text', text) + extra);
    return element(tag, { format: 'html' }, this.htmlContent(text) + extra);
  }

  /** HTML's `<text>`, its media rewritten to @@PLUGINFILE@@ and carried as `<file>` elements after it. */
  private htmlContent(text: string): string {
    const { files, media } = this;
    const used = mediaIdsIn(text).filter((id) => files.has(id));
    const rewritten = replaceMediaRefs(htmlCharRefs(text), (id) =>
      files.has(id) ? `${MEDIA_PLACEHOLDER}${rawUrlEncode(files.get(id)!)}` : undefined,
    );
    const fileElements = used
      .map((id) =>
        element(
          'file',
          { name: files.get(id)!, path: '/', encoding: 'base64' },
          Buffer.from(media.get(id)!.bytes).toString('base64'),
        ),
      )
      .join('');
    return textElement('text', rewritten) + fileElements;
  }

  /** An option's `<answer>`: HTML (with its files) in an html question, else plain text. */
  optionAnswer(attrs: Record<string, string>, text: string, extra = ''): string {
    return this.html
      ? element('answer', { ...attrs, format: 'html' }, this.htmlContent(text) + extra)
      : element('answer', { ...attrs, format: 'plain_text' }, textElement('text', text) + extra);
  }

  /** A choice's `<answer>` (an option as optionAnswer writes it) with its grade and feedback. */
  choiceAnswer(credit: number, text: string, feedback: string, extra = ''): string {
    return this.optionAnswer({ fraction: fraction(credit) }, text, this.formattedText('feedback', feedback) + extra);
  }

  /** A typed answer's `<answer>` (plain text, whatever the question's format) with its grade and feedback. */
  textAnswer(credit: number, text: string, feedback: string, extra = ''): string {
    return element(
      'answer',
      { fraction: fraction(credit), format: 'plain_text' },
      textElement('text', text) + this.formattedText('feedback', feedback) + extra,
    );
  }

  /** The settings of Moodle's choices (multichoice) as the bank shows options: shuffled, and without Moodle's instruction. */
  choiceSettings(): string {
    return (
      textElement('shuffleanswers', 'true') +
      // The bank shows options unnumbered.
      textElement('answernumbering', 'none') +
      textElement('showstandardinstruction', '0')
    );
  }

  /** The question's own `<file>` (a drag-and-drop question's background): the stored media file `src` names, if it is one. */
  backgroundFile(src: string): string | undefined {
    const [id] = mediaIdsIn(src);
    const file = id === undefined ? undefined : this.media.get(id);
    if (!file) return undefined;
    return element(
      'file',
      { name: safeFileName(file.name), path: '/', encoding: 'base64' },
      Buffer.from(file.bytes).toString('base64'),
    );
  }
}
