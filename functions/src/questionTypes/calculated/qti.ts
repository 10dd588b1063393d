import type { QtiMapping } from '../../interchange';
import { calculated } from './module';

// A calculated question in QTI: none. Its values are drawn per attempt, which QTI says only in a
// template item (templateDeclaration, templateProcessing, the formula an expression tree of QTI
// operators), which this export does not write and few players run; an item read back as something
// else (a description) would be worse than none.

export const calculatedQti: QtiMapping = {
  type: calculated.name,
  write: { notWritten: 'a calculated question, whose values drawn per attempt QTI says only in a template item' },
};
