import { OPTION_SEPARATOR, type ParsedBank, type ParsedItem, type QuestionDraft } from '../model';

// Pure: an Aiken file to a ParsedBank, read line by line as Moodle's
// qformat_aiken reads it (the same errors, with the same words and line
// numbers), so that a file Moodle imports imports the same here. Where Moodle
// would build a broken question or drop one silently, this reports an error
// on that question instead. What a question becomes is the type's it is given
// (AikenType: a single-answer choice, questionTypes/formats/aiken.ts).
//
//   Question text
//   A) First option          (or "A. First option", or "A)First option")
//   B) Second option
//   ANSWER: B

/** An option line: a capital letter, ")" or ".", then the option's text (Moodle's test). */
const OPTION = /^([A-Z])[).][ \t]?(.*)$/;
/** The answer line. Moodle wants exactly "ANSWER:"; "Answer :" means the same and is taken too. */
const ANSWER = /^ANSWER\s*:(.*)$/i;

/** The question type Aiken's questions become, as the reader is given it. */
export interface AikenType {
  readonly name: string;
  /** Its fields from a question's options and the one its ANSWER line names. */
  choice(options: string[], answer: string): Partial<QuestionDraft>;
}

interface OpenQuestion {
  line: number;
  textLines: string[];
  options: Array<{ label: string; text: string; line: number }>;
}

const SOURCE_TYPE = 'multichoice';

function errorItem(line: number, message: string, sourceType = SOURCE_TYPE): ParsedItem {
  return { line, title: null, source_type: sourceType, status: 'error', message, warnings: [], category: null };
}

/** The finished question, or the first reason it cannot be one. */
function closeQuestion(open: OpenQuestion, answerText: string, answerLine: number, type: AikenType): ParsedItem {
  if (open.options.length < 2)
    return errorItem(open.line, `Question must have at least 2 answers on line ${answerLine}`);
  const letter = answerText.trim().charAt(0).toUpperCase();
  if (letter === '') return errorItem(open.line, `ANSWER names no option on line ${answerLine}`);
  const labels = open.options.map((o) => o.label);
  const range = `${labels[0]} to ${labels[labels.length - 1]}`;
  const chosen = open.options.filter((o) => o.label === letter);
  if (chosen.length === 0)
    return errorItem(open.line, `ANSWER: ${letter} is not one of the options (${range}) on line ${answerLine}`);
  for (const option of open.options) {
    const twice = open.options.find((o) => o.label === option.label && o.line > option.line);
    if (twice)
      return errorItem(
        open.line,
        `Option ${option.label} is given twice, on line ${option.line} and line ${twice.line}`,
      );
    if (option.text === '') return errorItem(open.line, `Option ${option.label} has no text on line ${option.line}`);
    if (option.text.includes(OPTION_SEPARATOR))
      return errorItem(
        open.line,
        `Option ${option.label} contains "${OPTION_SEPARATOR}", which an option cannot contain, on line ${option.line}`,
      );
  }

  const warnings: string[] = [];
  if (open.textLines.length > 1)
    warnings.push(
      `The question text runs over ${open.textLines.length} lines (from line ${open.line}); Aiken gives it one line, so they were kept as one text`,
    );
  const inOrder = labels.every((label, i) => label.charCodeAt(0) === 'A'.charCodeAt(0) + i);
  if (!inOrder)
    warnings.push(
      `The options are labelled ${labels.join(', ')}, not A, B, C… in order; ANSWER: ${letter} was matched by its label`,
    );

  const question: QuestionDraft = {
    question_type: type.name,
    question_text: open.textLines.join('\n'),
    text_format: 'plain',
    ...type.choice(
      open.options.map((o) => o.text),
      chosen[0].text,
    ),
    marks: 1,
    difficulty: 'medium',
  };
  return {
    line: open.line,
    title: null,
    source_type: SOURCE_TYPE,
    status: 'ok',
    message: null,
    warnings,
    category: null,
    question,
  };
}

/**
 * Reads an Aiken file (already decoded; a BOM and CR line ends are tolerated).
 * Every question found, good or not, is an item in file order; an option or
 * ANSWER line outside any question is an item of its own (source_type 'aiken',
 * no question). Text is plain: `<b>` and `&` stay as written. Each question
 * becomes one of `type`.
 */
export function readAiken(text: string, type: AikenType): ParsedBank {
  const items: ParsedItem[] = [];
  const lines = text.replace(/^\uFEFF/, '').split(/\r\n|\r|\n/);
  let open: OpenQuestion | null = null;

  lines.forEach((raw, index) => {
    const line = index + 1;
    const now = raw.trim();
    if (now === '') return;

    const option = OPTION.exec(now);
    if (option) {
      if (!open) {
        items.push(errorItem(line, `Question not started on line ${line}`, 'aiken'));
        return;
      }
      open.options.push({ label: option[1], text: option[2].trim(), line });
      return;
    }

    const answer = ANSWER.exec(now);
    if (answer) {
      if (!open) {
        items.push(errorItem(line, `Question not started on line ${line}`, 'aiken'));
        return;
      }
      items.push(closeQuestion(open, answer[1], line, type));
      open = null;
      return;
    }

    // A text line: more of the question text while no option has come yet,
    // else the start of the next question (the open one is never finished).
    if (open && open.options.length === 0) {
      open.textLines.push(now);
      return;
    }
    if (open) items.push(errorItem(open.line, `Question not completed before next question start on line ${line}`));
    open = { line, textLines: [now], options: [] };
  });

  if (open) {
    const last = lines.length - (lines[lines.length - 1] === '' ? 1 : 0);
    items.push(
      errorItem((open as OpenQuestion).line, `Question not completed before the end of the file on line ${last}`),
    );
  }
  return { format: 'aiken', items, media: new Map() };
}
