// One-key actions, anywhere on the screen but in a field or a dialog: j/k
// (and the arrows, Home, End) move, a r h p act, x or Space select, u undoes,
// ? shows the shortcuts, Esc clears the selection.
import { useEffect, type RefObject } from 'react';
import type { Post } from '../../api/client';
import type { Verb } from '../../api/queries/posts';

export function useQueueKeys({
  listNow,
  indexRef,
  move,
  run,
  toggleSelect,
  undo,
  toggleHelp,
  clearSelection,
}: {
  listNow(): Post[];
  indexRef: RefObject<number>;
  move(by: number | 'first' | 'last'): void;
  run(verb: Verb): void;
  toggleSelect(id: number): void;
  /** the undo, when there is one to do now */
  undo: (() => void) | null;
  toggleHelp(): void;
  clearSelection(): void;
}) {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.ctrlKey || e.metaKey || e.altKey) return;
      const t = e.target as HTMLElement;
      if (t.closest('input, select, textarea, dialog, [contenteditable]')) return;
      const now = listNow();
      const post = now[Math.min(indexRef.current, now.length - 1)];
      const keys: Record<string, () => void> = {
        j: () => move(1),
        ArrowDown: () => move(1),
        k: () => move(-1),
        ArrowUp: () => move(-1),
        Home: () => move('first'),
        End: () => move('last'),
        a: () => run('approve'),
        r: () => run('reject'),
        h: () => run('hide'),
        p: () => run('pin'),
        x: () => post && toggleSelect(post.id),
        ' ': () => post && toggleSelect(post.id),
        u: () => undo?.(),
        '?': toggleHelp,
        Escape: clearSelection,
      };
      // Space and the arrows on a button or link keep their own meaning
      if ((e.key === ' ' || e.key === 'Enter') && t.closest('button, a')) return;
      const handler = keys[e.key];
      if (!handler) return;
      e.preventDefault();
      handler();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [listNow, indexRef, move, run, toggleSelect, undo, toggleHelp, clearSelection]);
}
