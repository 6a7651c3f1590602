// Labelled form fields that show a message under themselves (the API's
// fieldErrors or a local check) and a hint, tied to their control for screen
// readers; choices as <option>s; a form's Save/Cancel row.
import {
  useId,
  type InputHTMLAttributes,
  type ReactNode,
  type SelectHTMLAttributes,
  type TextareaHTMLAttributes,
} from 'react';
import { fieldMessage } from '../api/messages';
import { Button } from './kit';

interface FieldProps {
  label: string;
  /** the API's message for this field (shown in plain words, naming the field by `label`), or a local one */
  error?: string | undefined;
  hint?: string | undefined;
}

/** The props that tie a control to its label, hint and error. */
interface Control {
  id: string;
  'aria-invalid': true | undefined;
  'aria-describedby': string | undefined;
}

/** A field: its label, its control (made by `children` with the props that tie it), its hint and its error. */
function Field({ label, error, hint, children }: FieldProps & { children(control: Control): ReactNode }) {
  const id = useId();
  const described = [error ? `${id}-error` : null, hint ? `${id}-hint` : null].filter(Boolean).join(' ') || undefined;
  return (
    <div className={error ? 'field field-invalid' : 'field'}>
      <label htmlFor={id}>{label}</label>
      {children({ id, 'aria-invalid': error ? true : undefined, 'aria-describedby': described })}
      {hint && (
        <p className="hint" id={`${id}-hint`}>
          {hint}
        </p>
      )}
      {error && (
        <p className="field-error" id={`${id}-error`}>
          {fieldMessage(error, label)}
        </p>
      )}
    </div>
  );
}

export function TextField({ label, error, hint, ...input }: FieldProps & InputHTMLAttributes<HTMLInputElement>) {
  return <Field {...{ label, error, hint }}>{(control) => <input {...control} {...input} />}</Field>;
}

export function TextAreaField({
  label,
  error,
  hint,
  ...area
}: FieldProps & TextareaHTMLAttributes<HTMLTextAreaElement>) {
  return <Field {...{ label, error, hint }}>{(control) => <textarea {...control} {...area} />}</Field>;
}

export function SelectField({
  label,
  error,
  hint,
  children,
  ...select
}: FieldProps & SelectHTMLAttributes<HTMLSelectElement> & { children: ReactNode }) {
  return (
    <Field {...{ label, error, hint }}>
      {(control) => (
        <select {...control} {...select}>
          {children}
        </select>
      )}
    </Field>
  );
}

export function CheckboxField(props: { label: string } & InputHTMLAttributes<HTMLInputElement>) {
  const { label, ...input } = props;
  const id = useId();
  return (
    <div className="field field-check">
      <input id={id} type="checkbox" {...input} />
      <label htmlFor={id}>{label}</label>
    </div>
  );
}

/** The <option>s of [value, label] pairs. */
export function Options({ of }: { of: readonly (readonly [value: string | number, label: ReactNode])[] }) {
  return of.map(([value, label]) => (
    <option key={value} value={value}>
      {label}
    </option>
  ));
}

/** Walls or accounts as choices: "name (#id)". */
export const byName = (items: readonly { id: number; name: string }[]) =>
  items.map((i) => [i.id, `${i.name} (#${i.id})`] as const);

/** A form's row of actions: submit (off while it is on its way) and Cancel. */
export function FormActions({ submit, pending, onCancel }: { submit: string; pending: boolean; onCancel(): void }) {
  return (
    <div className="form-actions">
      <Button type="submit" variant="primary" disabled={pending}>
        {submit}
      </Button>
      <Button onClick={onCancel}>Cancel</Button>
    </div>
  );
}
