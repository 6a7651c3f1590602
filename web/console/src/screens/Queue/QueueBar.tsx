// Above the list: how many posts it holds (live), the selection's bulk
// actions (moderation, and asking for the posts' rights), and the undo of
// the last action.
import type { ListState, Verb } from '../../api/queries/posts';
import { Button } from '../../ui/kit';
import { STATE_NAMES, type UndoEntry } from './moderation';

const BULK: [Verb, string][] = [
  ['approve', 'Approve selected'],
  ['reject', 'Reject selected'],
  ['hide', 'Hide selected'],
  ['pin', 'Pin selected'],
];

export function QueueBar({
  count,
  state,
  mayModerate,
  selected,
  busy,
  onRun,
  onClearSelection,
  onRequestRights,
  undo,
  onUndo,
}: {
  /** the posts loaded, and whether there are more; null until the list is loaded */
  count: { loaded: number; more: boolean } | null;
  state: ListState;
  mayModerate: boolean;
  selected: number;
  busy: boolean;
  onRun(verb: Verb): void;
  onClearSelection(): void;
  /** asks for the selected posts' rights; absent: the token may not ask */
  onRequestRights?: (() => void) | undefined;
  undo: UndoEntry | null;
  onUndo(undo: UndoEntry): void;
}) {
  return (
    <div className="queue-bar">
      <p className="count" aria-live="off">
        {count &&
          `${count.loaded}${count.more ? '+' : ''} ${STATE_NAMES[state].toLowerCase()} post${count.loaded === 1 ? '' : 's'}`}
        {state === 'pending' && ' · oldest first'}
        <span className="live" title="checked every few seconds">
          {' '}
          · live
        </span>
      </p>
      {mayModerate && selected > 0 && (
        <div className="bulk" role="group" aria-label="Selected posts">
          <strong>{selected} selected</strong>
          {BULK.map(([verb, label]) => (
            <Button
              key={verb}
              {...(verb === 'approve' && { className: 'btn btn-approve' })}
              onClick={() => onRun(verb)}
              disabled={busy}
            >
              {label}
            </Button>
          ))}
          {onRequestRights && (
            <Button onClick={onRequestRights} disabled={busy}>
              Request rights
            </Button>
          )}
          <Button onClick={onClearSelection}>Clear selection</Button>
        </div>
      )}
      {mayModerate && undo && (
        <Button onClick={() => onUndo(undo)} disabled={busy}>
          Undo: {undo.label}
        </Button>
      )}
    </div>
  );
}
