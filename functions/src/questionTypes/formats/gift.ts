import { gift, type ExportPool, type ExportQuestion, type ParsedBank } from '../../interchange';
import { calculated } from '../calculated/module';
import { calculatedGift } from '../calculated/gift';
import { description } from '../description/module';
import { descriptionGift } from '../description/gift';
import { essay } from '../essay/module';
import { essayGift } from '../essay/gift';
import { gapFill } from '../gapFill/module';
import { gapFillGift } from '../gapFill/gift';
import { hotspot } from '../hotspot/module';
import { hotspotGift } from '../hotspot/gift';
import { hottext } from '../hottext/module';
import { hottextGift } from '../hottext/gift';
import { matching } from '../matching/module';
import { matchingGift } from '../matching/gift';
import type { QuestionTypeModule } from '../module';
import { multipleChoice } from '../multipleChoice/module';
import { multipleChoiceGift } from '../multipleChoice/gift';
import { multipleSelect } from '../multipleSelect/module';
import { multipleSelectGift } from '../multipleSelect/gift';
import { numeric } from '../numeric/module';
import { numericGift } from '../numeric/gift';
import { ordering } from '../ordering/module';
import { orderingGift } from '../ordering/gift';
import { shortAnswer } from '../shortAnswer/module';
import { shortAnswerGift } from '../shortAnswer/gift';
import { trueFalse } from '../trueFalse/module';
import { trueFalseGift } from '../trueFalse/gift';

// GIFT read and written with every question type's mappings (each type's gift.ts, where GIFT can
// hold it): the format's own syntax is interchange/gift/'s, what a type becomes in it is the type's.

/** Each type with its GIFT mapping: what it reads, how it writes, or why GIFT cannot say it. */
const MAPPINGS: ReadonlyArray<[QuestionTypeModule, gift.GiftMapping]> = [
  [multipleChoice, multipleChoiceGift],
  [multipleSelect, multipleSelectGift],
  [trueFalse, trueFalseGift],
  [shortAnswer, shortAnswerGift],
  [numeric, numericGift],
  [essay, essayGift],
  [matching, matchingGift],
  [ordering, orderingGift],
  [gapFill, gapFillGift],
  [hottext, hottextGift],
  [calculated, calculatedGift],
  [hotspot, hotspotGift],
  [description, descriptionGift],
];

/** The question types as GIFT asks them: each type's name and option facts with its mapping. */
export const GIFT_TYPES: ReadonlyArray<gift.GiftType> = MAPPINGS.map(([type, mapping]) => ({
  name: type.name,
  htmlOptions: type.htmlOptions,
  ...mapping,
}));

const TYPES = gift.giftTypes(GIFT_TYPES);

export const parseGift = (text: string): ParsedBank => gift.readGift(text, TYPES);

/** One question as a GIFT block (comment lines, then the question), without the blank line after it. */
export const giftQuestion = (q: ExportQuestion): string => gift.giftQuestion(q, TYPES);

/** Writes GIFT a few questions at a time (for a streamed export), every type as its mapping says. */
export class GiftWriter extends gift.GiftWriter {
  /** `header`: comment lines written first (e.g. a test's pools). */
  constructor(header: readonly string[] = []) {
    super(TYPES, header);
  }
}

export const giftPoolNotes = gift.giftPoolNotes;

/** The questions as one GIFT text. */
export const toGift = (questions: readonly ExportQuestion[], pools: readonly ExportPool[] = []): string =>
  new GiftWriter(giftPoolNotes(pools)).write(questions);
