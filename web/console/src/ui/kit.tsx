// Small accessible building blocks: a modal dialog (native <dialog>: focus
// moves in, Escape closes, focus returns), loading/empty/error states, lists
// and tables, screen headings that take focus when a screen opens. The form
// fields are in fields.tsx.
import { useEffect, useId, useRef, type ButtonHTMLAttributes, type ReactNode } from 'react';
import { messageOf } from '../api/messages';
import { whenText } from './text';
import './kit.css';

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

export function Button({
  variant = 'secondary',
  ...props
}: ButtonHTMLAttributes<HTMLButtonElement> & { variant?: 'primary' | 'secondary' | 'danger' | 'link' }) {
  return <button type="button" className={`btn btn-${variant}`} {...props} />;
}

/** The message of an error for people: the API's refusal in plain words, naming fields by their labels (api/messages.ts). */
export function errorText(error: unknown): string {
  return messageOf(error);
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

/** What QueryStatus reads of a query. */
type QueryState = { isPending: boolean; isSuccess: boolean; error: unknown };

/**
 * A query's states in the usual place: "Loading `what`…" while it has no
 * answer (and is `active`: a query waiting for its input stays pending), the
 * error if it failed ("The `what` could not be loaded", unless `failed` says
 * otherwise), and `empty` (when given) once it answered.
 */
export function QueryStatus({
  query,
  what,
  failed = `The ${what.replace(/^the /, '')} could not be loaded`,
  empty,
  active = true,
}: {
  query: QueryState;
  what: string;
  failed?: string;
  empty?: ReactNode;
  active?: boolean;
}) {
  return (
    <>
      {query.isPending && active && <Loading what={what} />}
      <ErrorNote error={query.error} title={failed} />
      {query.isSuccess && empty ? <Empty>{empty}</Empty> : null}
    </>
  );
}

/**
 * A list a query loads: its states as QueryStatus shows them, `empty` once it
 * answered with no `rows`, and `children` (the rows shown) once it has some.
 */
export function QueryRows({
  query,
  what,
  rows,
  empty,
  active,
  children,
}: {
  query: QueryState;
  what: string;
  rows: readonly unknown[];
  empty: ReactNode;
  active?: boolean;
  children: ReactNode;
}) {
  return (
    <>
      <QueryStatus query={query} what={what} active={active} empty={rows.length === 0 && empty} />
      {rows.length > 0 && children}
    </>
  );
}

/** A list's empty state: that there is none yet, then how one is added (`howToAdd`; false: the first line only). */
export function NoneYet({ children, howToAdd }: { children: ReactNode; howToAdd: ReactNode }) {
  return (
    <>
      <p>{children}</p>
      {howToAdd && <p>{howToAdd}</p>}
    </>
  );
}

/** The button that loads a paged query's next page, shown while there is one. */
export function ShowMore({
  query,
  children,
}: {
  query: { hasNextPage: boolean; isFetchingNextPage: boolean; fetchNextPage(): Promise<unknown> };
  children: ReactNode;
}) {
  if (!query.hasNextPage) return null;
  return (
    <Button onClick={() => void query.fetchNextPage()} disabled={query.isFetchingNextPage}>
      {children}
    </Button>
  );
}

/**
 * A table: its caption (read by screen readers, not shown), its column
 * headings (those in `numeric` right-aligned like their numbers) and its rows.
 */
export function DataTable({
  className,
  caption,
  columns,
  numeric = [],
  children,
}: {
  className: string;
  caption?: string;
  columns: readonly string[];
  numeric?: readonly string[];
  children: ReactNode;
}) {
  return (
    <table className={className}>
      {caption && <caption className="sr-only">{caption}</caption>}
      <thead>
        <tr>
          {columns.map((c) => (
            <th scope="col" key={c} className={numeric.includes(c) ? 'num' : undefined}>
              {c}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>{children}</tbody>
    </table>
  );
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

/**
 * One of a screen's dialogs when they share one state, a union tagged by
 * `kind`: open while the state is of `kind`, its title and body made from the
 * state narrowed to that kind.
 */
export function DialogFor<State extends { kind: string }, Kind extends State['kind']>({
  state,
  kind,
  title,
  onClose,
  children,
}: {
  state: State | null;
  kind: Kind;
  title: string | ((shown: Extract<State, { kind: Kind }>) => string);
  onClose(): void;
  children(shown: Extract<State, { kind: Kind }>): ReactNode;
}) {
  const shown = state?.kind === kind ? (state as Extract<State, { kind: Kind }>) : null;
  return (
    <Dialog
      title={typeof title === 'string' ? title : shown ? title(shown) : ''}
      open={shown !== null}
      onClose={onClose}
    >
      {shown && children(shown)}
    </Dialog>
  );
}

/** "3 minutes ago" / "in 5 minutes" within a week, then the date ("12 Mar, 14:05"), in a tooltip-free <time>. */
export function When({ iso, empty = 'never' }: { iso: string | null | undefined; empty?: string }) {
  if (!iso) return <>{empty}</>;
  return <time dateTime={iso}>{whenText(iso)}</time>;
}

type ConfirmProps = {
  children: ReactNode;
  /** the write to confirm (a mutation without variables) */
  mutation: { error: unknown; isPending: boolean; mutate(): void };
  onCancel(): void;
};

/**
 * The body of a dialog that confirms a destructive action: what will happen,
 * the API's refusal if any, the action and Cancel.
 */
export function ConfirmDanger({
  children,
  mutation,
  errorTitle,
  action,
  onCancel,
}: ConfirmProps & { errorTitle: string; action: string }) {
  return (
    <div>
      <p>{children}</p>
      <ErrorNote error={mutation.error} title={errorTitle} />
      <div className="form-actions">
        <Button variant="danger" onClick={() => mutation.mutate()} disabled={mutation.isPending}>
          {action}
        </Button>
        <Button onClick={onCancel}>Cancel</Button>
      </div>
    </div>
  );
}

/** ConfirmDanger for deleting a `thing` (say "wall"): its button "Delete wall", its refusal "The wall was not deleted". */
export function ConfirmDelete({ thing, ...confirm }: ConfirmProps & { thing: string }) {
  return <ConfirmDanger errorTitle={`The ${thing} was not deleted`} action={`Delete ${thing}`} {...confirm} />;
}
