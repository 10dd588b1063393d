import {
  moodleQuestion as moodleQuestionOf,
  MoodleXmlFileWriter,
  moodleXmlTypes,
  readMoodleXml,
  writeMoodleXml,
  type ExportMediaFile,
  type ExportPool,
  type ExportQuestion,
  type MoodleXmlMapping,
  type ParsedBank,
} from '../../interchange';
import { calculatedMoodleXml } from '../calculated/moodleXml';
import { descriptionMoodleXml } from '../description/moodleXml';
import { essayMoodleXml } from '../essay/moodleXml';
import { gapFillMoodleXml } from '../gapFill/moodleXml';
import { hotspotMoodleXml } from '../hotspot/moodleXml';
import { hottextMoodleXml } from '../hottext/moodleXml';
import { matchingMoodleXml } from '../matching/moodleXml';
import { multipleChoiceMoodleXml } from '../multipleChoice/moodleXml';
import { multipleSelectMoodleXml } from '../multipleSelect/moodleXml';
import { numericMoodleXml } from '../numeric/moodleXml';
import { orderingMoodleXml } from '../ordering/moodleXml';
import { type QuestionType, questionTypeOf } from '../registry';
import { shortAnswerMoodleXml } from '../shortAnswer/moodleXml';
import { trueFalseMoodleXml } from '../trueFalse/moodleXml';

// Moodle XML read and written with every question type's mappings (each type's moodleXml.ts): the
// format's own structure is interchange/moodleXml/'s, what a type becomes in it is the type's.

/** The media a question refers to, by id. */
type ExportMedia = ReadonlyMap<string, ExportMediaFile>;

/** Every type's mapping, by its name: one for each type, or the compiler says which is missing. */
export const MOODLE_XML_MAPPINGS: Readonly<Record<QuestionType, MoodleXmlMapping>> = {
  multiple_choice: multipleChoiceMoodleXml,
  multiple_select: multipleSelectMoodleXml,
  true_false: trueFalseMoodleXml,
  short_answer: shortAnswerMoodleXml,
  numeric: numericMoodleXml,
  essay: essayMoodleXml,
  matching: matchingMoodleXml,
  ordering: orderingMoodleXml,
  gap_fill: gapFillMoodleXml,
  hottext: hottextMoodleXml,
  calculated: calculatedMoodleXml,
  hotspot: hotspotMoodleXml,
  description: descriptionMoodleXml,
};

const TYPES = moodleXmlTypes(MOODLE_XML_MAPPINGS, (type) => questionTypeOf(type).htmlOptions);

/** Reads a Moodle XML file; a file that is not one (or any DOCTYPE, entity or malformed XML) throws BankFileRefused. */
export const parseMoodleXml = (text: string): ParsedBank => readMoodleXml(text, TYPES);

/**
 * Writes Moodle XML a few questions at a time (for a streamed export). With pools, each pool's
 * questions are written into the pool's category and `end()` adds its random questions there.
 */
export class MoodleXmlWriter extends MoodleXmlFileWriter {
  constructor(pools: readonly ExportPool[] = []) {
    super(TYPES, pools);
  }
}

/** The questions (and a test's pools) as one Moodle XML text. */
export const toMoodleXml = (
  questions: readonly ExportQuestion[],
  media: ExportMedia = new Map(),
  pools: readonly ExportPool[] = [],
): string => writeMoodleXml(TYPES, questions, media, pools);

/** One `<question>` (with comments before it for what was rounded). */
export const moodleQuestion = (q: ExportQuestion, media: ExportMedia): string => moodleQuestionOf(TYPES, q, media);
