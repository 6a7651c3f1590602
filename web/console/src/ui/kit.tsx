// Small accessible building blocks: labelled fields that show the API's
// fieldErrors, a modal dialog (native <dialog>: focus moves in, Escape
// closes, focus returns), loading/empty/error states, screen headings that
// take focus when a screen opens.
import {
  useEffect,
  useId,
  useRef,
  type ButtonHTMLAttributes,
  type InputHTMLAttributes,
  type ReactNode,
  type SelectHTMLAttributes,
  type TextareaHTMLAttributes,
} from 'react';
import { ApiError } from '../api/client';

export function ScreenTitle({ children }: { children: ReactNode }) {
  const ref = useRef<HTMLHeadingElement>(null);
  // a screen change moves focus to its heading, so keyboard and screen reader users start there
  useEffect(() => ref.current?.focus(), []);
  return (
    <h1 ref={ref} tabIndex={-1}>
      {children}
    </h1>
  );
}

interface FieldProps {
  label: string;
  /** the API's message for this field, or a local one */
  error?: string | undefined;
  hint?: string;
}

function FieldShell({ label, error, hint, id, children }: FieldProps & { id: string; children: ReactNode }) {
  return (
    <div className={error ? 'field field-invalid' : 'field'}>
      <label htmlFor={id}>{label}</label>
      {children}
      {hint && (
        <p className="hint" id={`${id}-hint`}>
          {hint}
        </p>
      )}
      {error && (
        <p className="field-error" id={`${id}-error`}>
          {error}
        </p>
      )}
    </div>
  );
}

const described = (id: string, props: FieldProps) =>
  [props.error ? `${id}-error` : null, props.hint ? `${id}-hint` : null].filter(Boolean).join(' ') || undefined;

export function TextField(props: FieldProps & InputHTMLAttributes<HTMLInputElement>) {
  const { label, error, hint, ...input } = props;
  const id = useId();
  return (
    <FieldShell label={label} error={error} hint={hint} id={id}>
      <input id={id} aria-invalid={error ? true : undefined} aria-describedby={described(id, props)} {...input} />
    </FieldShell>
  );
}

export function SelectField(props: FieldProps & SelectHTMLAttributes<HTMLSelectElement> & { children: ReactNode }) {
  const { label, error, hint, children, ...select } = props;
  const id = useId();
  return (
    <FieldShell label={label} error={error} hint={hint} id={id}>
      <select id={id} aria-invalid={error ? true : undefined} aria-describedby={described(id, props)} {...select}>
        {children}
      </select>
    </FieldShell>
  );
}

export function TextAreaField(props: FieldProps & TextareaHTMLAttributes<HTMLTextAreaElement>) {
  const { label, error, hint, ...area } = props;
  const id = useId();
  return (
    <FieldShell label={label} error={error} hint={hint} id={id}>
      <textarea id={id} aria-invalid={error ? true : undefined} aria-describedby={described(id, props)} {...area} />
    </FieldShell>
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

export function Button({
  variant = 'secondary',
  ...props
}: ButtonHTMLAttributes<HTMLButtonElement> & { variant?: 'primary' | 'secondary' | 'danger' | 'link' }) {
  return <button type="button" className={`btn btn-${variant}`} {...props} />;
}

/** The message of an error for people; a 400's field messages are shown next to the fields. */
export function errorText(error: unknown): string {
  if (error instanceof ApiError) {
    if (error.status === 400 && error.fieldErrors.length > 0) return 'Some fields need attention (see below each).';
    if (error.status === 403) return `Not allowed: ${error.message}.`;
    if (error.status === 404) return `Not found: ${error.message}.`;
    if (error.status === 409) return `Could not save: ${error.message}.`;
    return error.message;
  }
  return error instanceof Error ? error.message : String(error);
}

export function ErrorNote({ error, title = 'Something went wrong' }: { error: unknown; title?: string }) {
  if (!error) return null;
  return (
    <div className="note note-error" role="alert">
      <strong>{title}.</strong> {errorText(error)}
    </div>
  );
}

export function Loading({ what }: { what: string }) {
  return (
    <p className="loading" role="status">
      Loading {what}…
    </p>
  );
}

export function Empty({ children }: { children: ReactNode }) {
  return <div className="empty">{children}</div>;
}

/** A polite live region: what an action did, read out by screen readers. */
export function Announce({ message }: { message: string }) {
  return (
    <p className="announce" role="status" aria-live="polite">
      {message}
    </p>
  );
}

export function Dialog({
  title,
  open,
  onClose,
  children,
}: {
  title: string;
  open: boolean;
  onClose(): void;
  children: ReactNode;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      dialog.showModal();
      // focus the first field (the close button comes first in the document, not in the task)
      dialog.querySelector<HTMLElement>('.dialog-body :is(input, select, textarea, button)')?.focus();
    }
    if (!open && dialog.open) dialog.close();
  }, [open]);
  return (
    <dialog
      ref={ref}
      aria-labelledby={titleId}
      onCancel={(e) => {
        e.preventDefault();
        onClose();
      }}
    >
      {open && (
        <>
          <div className="dialog-head">
            <h2 id={titleId}>{title}</h2>
            <Button variant="link" onClick={onClose} aria-label="Close dialog">
              ×
            </Button>
          </div>
          <div className="dialog-body">{children}</div>
        </>
      )}
    </dialog>
  );
}

/** "3 minutes ago" / "in 5 minutes", with the exact time in a tooltip-free <time>. */
export function When({ iso, empty = 'never' }: { iso: string | null | undefined; empty?: string }) {
  if (!iso) return <>{empty}</>;
  const ms = Date.parse(iso) - Date.now();
  const abs = Math.abs(ms);
  const [n, unit] =
    abs < 60_000
      ? [Math.round(abs / 1000), 'second']
      : abs < 3_600_000
        ? [Math.round(abs / 60_000), 'minute']
        : abs < 86_400_000
          ? [Math.round(abs / 3_600_000), 'hour']
          : [Math.round(abs / 86_400_000), 'day'];
  const span = `${n} ${unit}${n === 1 ? '' : 's'}`;
  return <time dateTime={iso}>{abs < 5_000 ? 'just now' : ms < 0 ? `${span} ago` : `in ${span}`}</time>;
}

/**
 * The body of a dialog that confirms a destructive action: what will happen,
 * the API's refusal if any, the action and Cancel.
 */
export function ConfirmDanger({
  children,
  error,
  errorTitle,
  action,
  pending,
  onConfirm,
  onCancel,
}: {
  children: ReactNode;
  error: unknown;
  errorTitle: string;
  action: string;
  pending: boolean;
  onConfirm(): void;
  onCancel(): void;
}) {
  return (
    <div>
      <p>{children}</p>
      <ErrorNote error={error} title={errorTitle} />
      <div className="form-actions">
        <Button variant="danger" onClick={onConfirm} disabled={pending}>
          {action}
        </Button>
        <Button onClick={onCancel}>Cancel</Button>
      </div>
    </div>
  );
}
