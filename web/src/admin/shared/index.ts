// Front door of admin/shared/: the parts every admin page uses, each written once.
export { Accommodations } from './Accommodations';
export { CheckAndImport, ImportModes, messageOnly, RefusedNote } from './CheckedImport';
export { choiceOf, importGate, type ImportMode, sentPartial } from './importGate';
export { COPY_FAILED, CopyValue, useCopy } from './CopyValue';
export { OverrideCells, OverrideColumns, OverrideFields, useOverrideInputs } from './OverrideForm';
export { Pager } from './Pager';
export { fromLocalInput, toLocalInput } from './time';
