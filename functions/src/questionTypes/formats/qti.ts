import {
  QtiPackageWriter as PackageWriter,
  readQtiPackage,
  readQtiXml,
  writeQtiPackage,
  type ExportQuestion,
  type ExportTest,
  type ParsedBank,
  type qtiReading,
  type qtiWriting,
  type QtiMapping,
  type QtiTypes,
} from '../../interchange';
import { calculatedQti } from '../calculated/qti';
import { descriptionQti } from '../description/qti';
import { essayQti } from '../essay/qti';
import { gapFillQti } from '../gapFill/qti';
import { hotspotQti } from '../hotspot/qti';
import { hottextQti } from '../hottext/qti';
import { matchingQti } from '../matching/qti';
import { multipleChoiceQti } from '../multipleChoice/qti';
import { multipleSelectQti } from '../multipleSelect/qti';
import { numericQti } from '../numeric/qti';
import { orderingQti } from '../ordering/qti';
import { shortAnswerQti } from '../shortAnswer/qti';
import { trueFalseQti } from '../trueFalse/qti';
import { questionTypeOf } from '../registry';

// QTI 2.1 and 3.0 read and written with every question type's mappings (each type's qti.ts): the
// packages and interactions are interchange/qti/'s, what a type becomes in them is the type's.

/** Every type's mapping, in the registry's order. */
export const QTI_MAPPINGS: ReadonlyArray<QtiMapping> = [
  multipleChoiceQti,
  multipleSelectQti,
  trueFalseQti,
  shortAnswerQti,
  numericQti,
  essayQti,
  matchingQti,
  orderingQti,
  gapFillQti,
  hottextQti,
  calculatedQti,
  hotspotQti,
  descriptionQti,
];

/** The one mapping that `has` something, or a thrown bug. */
function theOne(mappings: ReadonlyArray<QtiMapping>, has: (m: QtiMapping) => boolean, what: string): QtiMapping {
  const found = mappings.filter(has);
  if (found.length !== 1) throw new Error(`QTI needs one type ${what}, and ${found.length} are`);
  return found[0];
}

/** Each interaction's reader, from the types that read it: a second reader of one is a thrown bug. */
function readersOf(mappings: ReadonlyArray<QtiMapping>): QtiTypes['readers'] {
  const readers = new Map<string, InteractionReader>();
  for (const m of mappings)
    for (const [interaction, reader] of Object.entries(m.readers ?? {})) {
      if (readers.has(interaction)) throw new Error(`Two QTI readers of ${interaction}`);
      readers.set(interaction, reader);
    }
  return readers;
}

/** The table the QTI reader and writer are given: each type's mapping, with the facts its module states. */
function qtiTypes(mappings: ReadonlyArray<QtiMapping>): QtiTypes {
  const byName = new Map(
    mappings.map((m) => {
      const type = questionTypeOf(m.type);
      return [m.type, { write: m.write, scoredByPerson: type.marking === 'person', htmlOptions: type.htmlOptions }];
    }),
  );
  return {
    readers: readersOf(mappings),
    composites: mappings.flatMap((m) => (m.composite ? [m.composite] : [])),
    noInteraction: theOne(mappings, (m) => m.noInteraction !== undefined, 'of items with no interaction')
      .noInteraction!,
    byName,
    passageType: theOne(mappings, (m) => m.passage === true, 'of passages').type,
  };
}

const QTI_TYPES = qtiTypes(QTI_MAPPINGS);
type InteractionReader = qtiReading.InteractionReader;

/** A lone QTI item file (2.1 or 3.0) as a bank of one question. */
export const parseQtiXml = (text: string, where?: string): ParsedBank => readQtiXml(QTI_TYPES, text, where);

/** A QTI 3.0 (or 2.1) content package: the items its manifest lists, in its test's sections. */
export const parseQtiPackage = (bytes: Uint8Array): Promise<ParsedBank> => readQtiPackage(QTI_TYPES, bytes);

/** A QTI 3.0 package written question by question (a streamed export), each as its type's mapping writes it. */
export class QtiPackageWriter extends PackageWriter {
  constructor() {
    super(QTI_TYPES);
  }
}

/** The questions (and a test's structure) as a QTI 3.0 package, whole in memory. */
export const toQtiPackage = (
  questions: readonly ExportQuestion[],
  media?: qtiWriting.ExportMedia,
  test?: ExportTest,
): Promise<Buffer> => writeQtiPackage(QTI_TYPES, questions, media, test);
