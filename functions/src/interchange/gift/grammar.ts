// Pure: the peggy grammar of one GIFT question (the text of one block, blank
// lines already split, comment lines removed). It is lexical: it unescapes,
// finds the title, the format tags, the answer block and its answers, weights
// and feedback, and leaves every judgement (the type, whether a number is a
// number) to read.ts, so that a bad answer is reported in words, not as
// "Expected ...". It accepts any text that has at most one balanced answer
// block; braces are the only syntax errors.
//
// Escapes, as Moodle reads them: \\ → \, \~ \= \# \{ \} \: → the character,
// \n → a line break; any other backslash is itself. (Braces inside the actions'
// strings are written \x7B and \x7D: peggy counts the braces of an action.)

export const GIFT_GRAMMAR = String.raw`
Question
  = _ title:Title? _ stem:Stem block:AnswerBlock? tail:FreeText Stray? {
      return { title: title ?? null, stem, block: block ?? null, tail };
    }

Title
  = "::" chars:(Escaped / !"::" c:. { return c; })* "::" { return chars.join(""); }

Stem
  = format:FormatTag? text:FreeText { return { format: format ?? null, text }; }

Stray
  = "{" { error("A second answer block in the same question (questions are separated by a blank line; write \\\x7B for a literal brace)"); }
  / "}" { error("A \"\x7D\" without its \"\x7B\" (write \\\x7D for a literal brace)"); }

AnswerBlock
  = "{" body:Body Close { return body; }

Close
  = "}"
  / "{" { error("A \"\x7B\" inside an answer block (write \\\x7B for a literal brace)"); }
  / !. { error("The answer block is not closed: its \"\x7D\" is missing"); }

Body
  = _ feedback:GeneralFeedback? &"}" { return { kind: "empty", answers: [], feedback: feedback ?? null }; }
  / _ "#" answers:AnswerList feedback:GeneralFeedback? { return { kind: "numerical", answers, feedback: feedback ?? null }; }
  / answers:AnswerList feedback:GeneralFeedback? { return { kind: "answers", answers, feedback: feedback ?? null }; }

AnswerList
  = first:FirstAnswer? rest:(prefix:Prefix answer:Answer { return { ...answer, prefix }; })* {
      return first ? [first, ...rest] : rest;
    }

FirstAnswer
  = !Prefix answer:Answer { return { ...answer, prefix: null }; }

Prefix
  = "=" / "~"

Answer
  = _ weight:Weight? _ format:FormatTag? text:AnswerText feedback:Feedback* {
      return { weight: weight ?? null, format: format ?? null, text, feedback };
    }

Weight
  = "%" value:$("-"? [0-9]* ("." [0-9]*)?) "%" { return value; }

Feedback
  = !"####" "#" _ format:FormatTag? text:AnswerText { return { format: format ?? null, text }; }

GeneralFeedback
  = "####" _ format:FormatTag? text:FreeText { return { format: format ?? null, text }; }

FormatTag
  = "[" name:$("html" / "moodle" / "plain" / "markdown") "]" { return name; }

FreeText
  = chars:(Escaped / [^{}\\] / "\\")* { return chars.join(""); }

AnswerText
  = chars:(Escaped / [^=~#{}\\] / "\\")* { return chars.join(""); }

Escaped
  = "\\\\" { return "\\"; }
  / "\\n" { return "\n"; }
  / "\\" char:[~=#{}:] { return char; }

_
  = [ \t\r\n]*
`;

// What the grammar gives, as read.ts and the types' readers read it.

/** A format marker: `[html]`, `[moodle]`, `[plain]`, `[markdown]`. */
export type GiftFormat = 'html' | 'moodle' | 'plain' | 'markdown';

/** A text and the format it names (null: none, it takes its question's). */
export interface GiftText {
  format: GiftFormat | null;
  text: string;
}

/** One answer of a block: its prefix ("=" right, "~" other), weight, text and feedback. */
export interface GiftAnswer extends GiftText {
  prefix: '=' | '~' | null;
  weight: string | null;
  feedback: GiftText[];
}

/** An answer block: `{}` (empty), `{#...}` (numerical) or `{...}` (answers), and its general feedback. */
export interface GiftBlock {
  kind: 'empty' | 'numerical' | 'answers';
  answers: GiftAnswer[];
  feedback: GiftText | null;
}

/** One question: its title, its text before the block, the block (none: a description), the text after it. */
export interface GiftQuestion {
  title: string | null;
  stem: GiftText;
  block: GiftBlock | null;
  tail: string;
}
