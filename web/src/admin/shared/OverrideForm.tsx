import { useState } from 'react';
import { Field, formatTime } from '../../ui';
import { EMPTY_OVERRIDE, type OverrideInputs, overrideBody, overrideCells } from './overrideValues';

/** An override form's values as typed, and the body they send. */
export function useOverrideInputs() {
  const [inputs, setInputs] = useState<OverrideInputs>(EMPTY_OVERRIDE);
  const set = (field: keyof OverrideInputs) => (value: string) => setInputs((i) => ({ ...i, [field]: value }));
  return { inputs, set, body: () => overrideBody(inputs) };
}

/**
 * The window, timer and attempts of an override form, labelled for whom it is set: "Their" (a
 * student's) or "Class" (a class's).
 */
export function OverrideFields({ who, form }: { who: 'Their' | 'Class'; form: ReturnType<typeof useOverrideInputs> }) {
  const { inputs, set } = form;
  return (
    <>
      <Field label={`${who} opening time`}>
        <input type="datetime-local" value={inputs.opensAt} onChange={(e) => set('opensAt')(e.target.value)} />
      </Field>
      <Field label={`${who} closing time`}>
        <input type="datetime-local" value={inputs.closesAt} onChange={(e) => set('closesAt')(e.target.value)} />
      </Field>
      <Field label={`${who} timer (minutes)`}>
        <input type="number" min="1" max="1440" value={inputs.timer} onChange={(e) => set('timer')(e.target.value)} />
      </Field>
      <Field label={`${who} attempts`}>
        <input type="number" min="1" value={inputs.maxAttempts} onChange={(e) => set('maxAttempts')(e.target.value)} />
      </Field>
    </>
  );
}

/** The column headers of the values an override table shows. */
export function OverrideColumns() {
  return (
    <>
      <th scope="col">Opens</th>
      <th scope="col">Closes</th>
      <th scope="col">Timer</th>
      <th scope="col">Attempts</th>
    </>
  );
}

/** A set override's values, one cell each, under OverrideColumns. */
export function OverrideCells({ override }: { override: Parameters<typeof overrideCells>[0] }) {
  return (
    <>
      {overrideCells(override, formatTime).map((text, i) => (
        <td key={i}>{text}</td>
      ))}
    </>
  );
}
