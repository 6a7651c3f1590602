// The moderation queue — the screen that matters most. Pending posts oldest
// first, each with its media, text, author, network, feed and what held it
// (the rule, with the decision's reason). One key per action on the post in
// focus (a approve, r reject, h hide, p pin; j/k move; x or space select;
// with a selection the keys act on all of it in one bulk call), u undoes the
// last action. New posts arrive by polling the list every few seconds
// (TanStack Query's refetchInterval; see docs/design-decisions.md for why not a stream).
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useFeeds } from '../../api/queries/feeds';
import type { PostFilters } from '../../api/queries/posts';
import { useRules } from '../../api/queries/rules';
import { useMe } from '../../auth';
import { Announce, Button, ErrorNote, Loading, QueryStatus } from '../../ui/kit';
import { WallHead } from '../../ui/WallNav';
import { useAskRights } from '../Rights/RequestRights';
import { heldBy } from './moderation';
import { PostCard } from './PostCard';
import { QueueBar } from './QueueBar';
import { QueueFilters } from './QueueFilters';
import { Shortcuts } from './Shortcuts';
import { useModeration } from './useModeration';
import { useQueueKeys } from './useQueueKeys';
import { useArrivals, useQueueList } from './useQueueList';

export function Queue({ wallId }: { wallId: number }) {
  const me = useMe();
  const mayModerate = me.can('PATCH /walls/{wallId}/posts/{postId}');
  const mayAskRights = me.can('POST /walls/{wallId}/rights/requests');
  const [filters, setFilters] = useState<PostFilters>({
    state: 'pending',
    feedId: '',
    network: '',
    media: '',
    rights: '',
    q: '',
  });
  const [current, setCurrent] = useState(0);
  const [selected, setSelected] = useState<Set<number>>(new Set());
  const [said, setSaid] = useState('');
  const [help, setHelp] = useState(false);
  const listRef = useRef<HTMLOListElement>(null);
  const focusWanted = useRef(false);

  const feeds = useFeeds(wallId);
  const rules = useRules(wallId);
  const ruleNames = useMemo(
    () => new Map((rules.data?.rules ?? []).map((r) => [r.id, `${r.kind}, ${r.action}`] as const)),
    [rules.data],
  );
  const queue = useQueueList(wallId, filters);
  const { posts, list, listNow } = queue;
  useArrivals(posts.data, queue.cache.queryKey, setSaid);

  // keep the cursor on the list, and load the next page before it runs out
  const index = Math.min(current, Math.max(0, list.length - 1));
  const indexRef = useRef(index);
  indexRef.current = index;
  const selectedRef = useRef(selected);
  selectedRef.current = selected;
  useEffect(() => {
    if (posts.hasNextPage && !posts.isFetchingNextPage && index >= list.length - 30) void posts.fetchNextPage();
  }, [index, list.length, posts]);
  useEffect(() => {
    if (!focusWanted.current) return;
    focusWanted.current = false;
    const el = listRef.current?.querySelector<HTMLElement>(`[data-index="${index}"]`);
    el?.focus({ preventScroll: true });
    el?.scrollIntoView({ block: 'nearest' });
  }, [index, list]);

  const clearSelection = useCallback(() => setSelected(new Set()), []);
  const toggleHelp = useCallback(() => setHelp((h) => !h), []);
  const { act, revert, undo, busy, run } = useModeration({
    wallId,
    mayModerate,
    queue,
    indexRef,
    selectedRef,
    clearSelection,
    focusWanted,
    say: setSaid,
  });

  const move = useCallback(
    (by: number | 'first' | 'last') => {
      focusWanted.current = true;
      const last = listNow().length - 1;
      const to = by === 'first' ? 0 : by === 'last' ? last : indexRef.current + by;
      setCurrent(Math.max(0, Math.min(last, to)));
    },
    [listNow],
  );
  const toggleSelect = useCallback((id: number) => {
    setSelected((s) => {
      const next = new Set(s);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  }, []);
  useQueueKeys({
    listNow,
    indexRef,
    move,
    run,
    toggleSelect,
    undo: undo && !busy ? () => revert.mutate(undo) : null,
    toggleHelp,
    clearSelection,
  });

  const rights = useAskRights(wallId, setSaid, clearSelection);
  const requestRights = () => {
    const chosen = listNow().filter((p) => selectedRef.current.has(p.id));
    if (chosen.length > 0) rights.ask(chosen);
  };

  const setFilter = (change: Partial<PostFilters>) => {
    setFilters((f) => ({ ...f, ...change }));
    setCurrent(0);
    setSelected(new Set());
  };
  const search = useCallback((q: string) => setFilters((f) => (f.q === q ? f : { ...f, q })), []);

  return (
    <section className="screen queue">
      <WallHead wallId={wallId} screen="queue">
        <Button onClick={toggleHelp} aria-expanded={help}>
          Keyboard shortcuts
        </Button>
      </WallHead>
      {help && <Shortcuts />}
      <QueueFilters
        filters={filters}
        feeds={feeds.data?.data ?? []}
        list={list}
        onFilter={setFilter}
        onSearch={search}
      />
      <QueueBar
        count={posts.isSuccess ? { loaded: list.length, more: posts.hasNextPage } : null}
        state={filters.state}
        mayModerate={mayModerate}
        selected={selected.size}
        busy={busy || rights.pending}
        onRun={run}
        onClearSelection={clearSelection}
        onRequestRights={mayAskRights ? requestRights : undefined}
        undo={undo}
        onUndo={(entry) => revert.mutate(entry)}
      />
      <Announce message={said} />
      <ErrorNote error={act.error} title="The action was not done" />
      {rights.view}
      <ErrorNote error={revert.error} title="The undo failed" />
      <QueryStatus
        query={posts}
        what="posts"
        empty={
          list.length === 0 &&
          !posts.hasNextPage &&
          (filters.state === 'pending' ? (
            <p>The queue is empty: no post is waiting for a decision. New posts show up here as they arrive.</p>
          ) : (
            <p>No posts match these filters.</p>
          ))
        }
      />
      {list.length > 0 && (
        <ol className="posts" ref={listRef} aria-label="Posts">
          {list.map((post, i) => (
            <PostCard
              key={post.id}
              post={post}
              index={i}
              current={i === index}
              selected={selected.has(post.id)}
              held={heldBy(post, ruleNames)}
              mayModerate={mayModerate}
              busy={busy}
              onRun={run}
              onToggle={toggleSelect}
              onFocusIndex={setCurrent}
            />
          ))}
        </ol>
      )}
      {posts.isFetchingNextPage && <Loading what="more posts" />}
    </section>
  );
}
