// The queue's actions: one post's (the one in focus, or a card's button) or
// the selection's in one bulk call, shown at once through the overlay and
// read again from the server once a burst of them is over; and undo, which
// puts the last action's posts back as they were.
import { useCallback, useEffect, useRef, useState, type RefObject } from 'react';
import type { Post } from '../../api/client';
import { useModeratePosts, useRestorePostMarks, type Verb } from '../../api/queries/posts';
import { changeOf, setBy, VERB_DONE, type UndoEntry } from './moderation';
import type { useQueueList } from './useQueueList';

export function useModeration({
  wallId,
  mayModerate,
  queue: { cache, overlay, bump, listNow },
  indexRef,
  selectedRef,
  clearSelection,
  focusWanted,
  say,
}: {
  wallId: number;
  mayModerate: boolean;
  queue: ReturnType<typeof useQueueList>;
  /** the post in focus */
  indexRef: RefObject<number>;
  selectedRef: RefObject<Set<number>>;
  clearSelection(): void;
  /** set when the focus should follow the list's cursor after the next render */
  focusWanted: RefObject<boolean>;
  say(message: string): void;
}) {
  const [undo, setUndo] = useState<UndoEntry | null>(null);
  const settleTimer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(settleTimer.current), []);
  const act = useModeratePosts(wallId, {
    onMutate: () => void cache.cancel(),
    onSuccess: (changed, { verb, targets }) => {
      // the cache stays as the server last answered; the overlay shows the change until an answer agrees
      for (const c of changed) overlay.set(c.id, { post: c, settled: true });
      const n = targets.length;
      const what = n === 1 ? `post by ${targets[0]!.authorName || targets[0]!.username || 'unknown'}` : `${n} posts`;
      const done =
        verb === 'hide' && n === 1 && !changed[0]!.hidden
          ? 'Unhidden'
          : verb === 'pin' && n === 1 && !changed[0]!.pinned
            ? 'Unpinned'
            : VERB_DONE[verb];
      setUndo({
        label: `${done} ${what}`,
        before: targets.map((p) => ({ id: p.id, state: p.state, hidden: p.hidden, pinned: p.pinned })),
      });
      say(`${done} ${what}. Press u to undo.`);
    },
    onError: (_error, { targets }) => {
      for (const t of targets) overlay.delete(t.id);
    },
    onSettled: () => {
      bump();
      // once a burst of decisions is over, read the list again (counts, and anything a refresh raced with)
      clearTimeout(settleTimer.current);
      settleTimer.current = setTimeout(() => {
        if ([...overlay.values()].some((e) => !e.settled)) return;
        void cache.refresh();
        void cache.refreshCounts();
      }, 1_500);
    },
  });

  const revert = useRestorePostMarks<UndoEntry>(wallId, {
    onMutate: (entry) => {
      for (const b of entry.before) overlay.delete(b.id);
      return cache.cancel();
    },
    onSuccess: async (_restored, entry) => {
      setUndo(null);
      say(`Undone: ${entry.label}.`);
      await cache.refresh();
      void cache.refreshCounts();
    },
  });

  const busy = revert.isPending;
  const mutate = act.mutate;
  /** acts on `post`, else on the selection, else on the post in focus */
  const run = useCallback(
    (verb: Verb, post?: Post) => {
      if (!mayModerate || busy) return;
      const now = listNow();
      const chosen = selectedRef.current;
      const current = now[Math.min(indexRef.current, now.length - 1)];
      const targets = post ? [post] : chosen.size > 0 ? now.filter((p) => chosen.has(p.id)) : current ? [current] : [];
      if (targets.length === 0) return;
      const expected = targets.map((p) => ({ ...p, ...(targets.length === 1 ? changeOf(verb, p) : setBy(verb)) }));
      for (const e of expected) overlay.set(e.id, { post: e, settled: false });
      bump();
      if (chosen.size > 0 && !post) clearSelection();
      focusWanted.current = true;
      mutate({ verb, targets, change: changeOf(verb, targets[0]!), expected });
    },
    [mayModerate, busy, listNow, mutate, overlay, bump, indexRef, selectedRef, clearSelection, focusWanted],
  );

  return { act, revert, undo, busy, run };
}
