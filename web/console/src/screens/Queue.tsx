// The moderation queue — the screen that matters most. Pending posts oldest
// first, each with its media, text, author, network, feed and what held it
// (the rule, with the decision's reason). One key per action on the post in
// focus (a approve, r reject, h hide, p pin; j/k move; x or space select;
// with a selection the keys act on all of it in one bulk call), u undoes the
// last action. New posts arrive by polling the list every few seconds
// (TanStack Query's refetchInterval; see the README for why not a stream).
import { useInfiniteQuery, useMutation, useQuery, useQueryClient, type InfiniteData } from '@tanstack/react-query';
import { memo, useCallback, useEffect, useMemo, useReducer, useRef, useState } from 'react';
import { api, unwrap, type Feed, type Post, type PostQuery } from '../api/client';
import { useMe } from '../auth';
import { Announce, Button, Empty, ErrorNote, Loading, When } from '../ui/kit';
import { WallHead } from '../ui/WallNav';
import { wallsKey } from './Walls';

const PAGE = 100;
/** how often the queue asks for new posts (ms) */
export const LIVE_INTERVAL = 4_000;

type ListState = NonNullable<PostQuery['state']>;
interface Filters {
  state: ListState;
  feedId: string;
  network: string;
  media: '' | 'image' | 'video' | 'text';
  q: string;
}
type Page = { data: Post[]; nextCursor: string | null };
type Change = { state?: Post['state']; hidden?: boolean; pinned?: boolean };
type Verb = 'approve' | 'reject' | 'hide' | 'pin';

/** What a post looked like before an action, to put back on undo. */
interface UndoEntry {
  label: string;
  before: { id: number; state: Post['state']; hidden: boolean; pinned: boolean }[];
}

const postsKey = (wallId: number, f: Filters) => ['posts', wallId, f] as const;

const texts = new WeakMap<Post, string>();
/** The text of a post's HTML, never its markup (a post is untrusted input); parsed once per answer. */
function plainText(post: Post): string {
  let text = texts.get(post);
  if (text === undefined) {
    text = new DOMParser().parseFromString(post.content, 'text/html').body.textContent?.trim() ?? '';
    texts.set(post, text);
  }
  return text;
}

/** Whether a post still belongs in a list of `state` after a change. */
function belongs(post: Post, state: ListState): boolean {
  if (state === 'all') return true;
  if (state === 'hidden') return post.hidden;
  return post.state === state;
}

function changeOf(verb: Verb, post: Post): Change {
  switch (verb) {
    case 'approve':
      return { state: 'approved' };
    case 'reject':
      return { state: 'rejected' };
    case 'hide':
      return { hidden: !post.hidden };
    case 'pin':
      return { pinned: !post.pinned };
  }
}

/** What a bulk action sets on every post (hide and pin set, they do not toggle). */
function setBy(verb: Verb): Change {
  return verb === 'approve'
    ? { state: 'approved' }
    : verb === 'reject'
      ? { state: 'rejected' }
      : verb === 'hide'
        ? { hidden: true }
        : { pinned: true };
}

const VERB_DONE: Record<Verb, string> = { approve: 'Approved', reject: 'Rejected', hide: 'Hidden', pin: 'Pinned' };

function heldBy(post: Post, rules: Map<string, string>): string | null {
  const d = post.decision;
  if (!d) return post.state === 'pending' ? 'Waiting for approval (manual moderation)' : null;
  const rule = /^rule:(.+)$/.exec(d.by);
  const reason = d.reason ? `: ${d.reason}` : '';
  if (rule) {
    const what = rules.get(rule[1]!);
    return `${post.state === 'pending' ? 'Held' : post.state === 'rejected' ? 'Rejected' : 'Approved'} by rule ${rule[1]}${what ? ` (${what})` : ''}${reason}`;
  }
  return `${post.state === 'approved' ? 'Approved' : post.state === 'rejected' ? 'Rejected' : 'Set pending'} by ${d.by} ${reason}`;
}

export function Queue({ wallId }: { wallId: number }) {
  const me = useMe();
  const mayModerate = me.can('PATCH /walls/{wallId}/posts/{postId}');
  const queryClient = useQueryClient();
  const [filters, setFilters] = useState<Filters>({ state: 'pending', feedId: '', network: '', media: '', q: '' });
  const [search, setSearch] = useState('');
  const [current, setCurrent] = useState(0);
  const [selected, setSelected] = useState<Set<number>>(new Set());
  const [undo, setUndo] = useState<UndoEntry | null>(null);
  const [said, setSaid] = useState('');
  const [help, setHelp] = useState(false);
  const listRef = useRef<HTMLOListElement>(null);
  const focusWanted = useRef(false);

  // the text search waits for a pause in typing
  useEffect(() => {
    const t = setTimeout(() => setFilters((f) => (f.q === search.trim() ? f : { ...f, q: search.trim() })), 300);
    return () => clearTimeout(t);
  }, [search]);

  const key = useMemo(() => postsKey(wallId, filters), [wallId, filters]);
  const posts = useInfiniteQuery({
    queryKey: key,
    queryFn: ({ pageParam }) => {
      const query: PostQuery = { state: filters.state, limit: String(PAGE) };
      if (pageParam) query.cursor = pageParam;
      if (filters.feedId) query.feedId = filters.feedId;
      if (filters.network) query.network = filters.network;
      if (filters.media) query.media = filters.media;
      if (filters.q) query.q = filters.q;
      return unwrap(api.GET('/walls/{wallId}/posts', { params: { path: { wallId: String(wallId) }, query } }));
    },
    initialPageParam: '',
    getNextPageParam: (page) => page.nextCursor ?? undefined,
    refetchInterval: LIVE_INTERVAL,
    refetchIntervalInBackground: false,
  });
  const feeds = useQuery({
    queryKey: ['feeds', wallId],
    queryFn: () =>
      unwrap(
        api.GET('/walls/{wallId}/feeds', { params: { path: { wallId: String(wallId) }, query: { limit: '200' } } }),
      ),
  });
  const rules = useQuery({
    queryKey: ['rules', wallId],
    queryFn: () => unwrap(api.GET('/walls/{wallId}/rules', { params: { path: { wallId: String(wallId) } } })),
  });
  const ruleNames = useMemo(
    () => new Map((rules.data?.rules ?? []).map((r) => [r.id, `${r.kind}, ${r.action}`] as const)),
    [rules.data],
  );

  // Posts whose change is on its way, shown as they will be: the next key acts on the next post at once,
  // however fast the keys come, and a refresh that lands meanwhile does not bring them back.
  // An entry stays after its call succeeds, until the server's list agrees: a refresh that was on its way
  // before the change was stored must not bring the post back.
  const overlay = useRef(new Map<number, { post: Post; settled: boolean }>());
  const [overlayVersion, bump] = useReducer((n: number) => n + 1, 0);
  const derive = useCallback(
    (data: InfiniteData<Page, unknown> | undefined) =>
      (data?.pages.flatMap((p) => p.data) ?? [])
        .map((p) => overlay.current.get(p.id)?.post ?? p)
        .filter((p) => belongs(p, filters.state)),
    [filters.state],
  );
  // overlayVersion: the overlay (a ref) changed
  const list = useMemo(() => derive(posts.data), [derive, posts.data, overlayVersion]);
  /** the list as it is now, between renders too (key presses can come faster than React renders) */
  const listNow = useCallback(
    () => derive(queryClient.getQueryData<InfiniteData<Page, unknown>>(key)),
    [derive, queryClient, key],
  );
  const networks = useMemo(() => {
    const seen = new Set<string>(['Mastodon', 'Bluesky', 'RSS', 'YouTube', 'Lemmy']);
    for (const p of list) if (p.networkName) seen.add(p.networkName);
    return [...seen].sort();
  }, [list]);

  // forget what the server's list now agrees with (or no longer lists)
  useEffect(() => {
    if (!posts.data) return;
    const server = new Map(posts.data.pages.flatMap((p) => p.data).map((p) => [p.id, p]));
    for (const [id, entry] of overlay.current) {
      if (!entry.settled) continue;
      const p = server.get(id);
      const e = entry.post;
      if (!p || (p.state === e.state && p.hidden === e.hidden && p.pinned === e.pinned)) overlay.current.delete(id);
    }
  }, [posts.data]);

  // new posts arrived (a refresh of the same list brought posts it did not have): say so once
  const known = useRef<{ key: string; pages: number; ids: Set<number> } | null>(null);
  useEffect(() => {
    if (!posts.data) return;
    const all = posts.data.pages.flatMap((p) => p.data);
    const was = known.current;
    const same = was !== null && was.key === JSON.stringify(key) && was.pages === posts.data.pages.length;
    if (same) {
      const fresh = all.filter((p) => !was.ids.has(p.id)).length;
      if (fresh > 0) setSaid(`${fresh} new post${fresh === 1 ? '' : 's'} arrived.`);
    }
    const ids = same || was?.key === JSON.stringify(key) ? was!.ids : new Set<number>();
    for (const p of all) ids.add(p.id);
    known.current = { key: JSON.stringify(key), pages: posts.data.pages.length, ids };
  }, [posts.data, key]);

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

  const settleTimer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(settleTimer.current), []);
  const act = useMutation({
    mutationFn: async ({ verb, targets, expected }: { verb: Verb; targets: Post[]; expected: Post[] }) => {
      const path = { wallId: String(wallId) };
      if (targets.length === 1) {
        const post = targets[0]!;
        const saved = await unwrap(
          api.PATCH('/walls/{wallId}/posts/{postId}', {
            params: { path: { ...path, postId: String(post.id) } },
            body: changeOf(verb, post),
          }),
        );
        return [saved];
      }
      // a selection: one atomic bulk call; hide and pin set (they do not toggle) on many posts
      await unwrap(
        api.POST('/walls/{wallId}/posts/bulk', {
          params: { path },
          body: { action: verb, postIds: targets.map((p) => p.id) },
        }),
      );
      return expected;
    },
    onMutate: () => void queryClient.cancelQueries({ queryKey: key }),
    onSuccess: (changed, { verb, targets }) => {
      // the cache stays as the server last answered; the overlay shows the change until an answer agrees
      for (const c of changed) overlay.current.set(c.id, { post: c, settled: true });
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
      setSaid(`${done} ${what}. Press u to undo.`);
    },
    onError: (_error, { targets }) => {
      for (const t of targets) overlay.current.delete(t.id);
    },
    onSettled: () => {
      bump();
      // once a burst of decisions is over, read the list again (counts, and anything a refresh raced with)
      clearTimeout(settleTimer.current);
      settleTimer.current = setTimeout(() => {
        if ([...overlay.current.values()].some((e) => !e.settled)) return;
        void queryClient.invalidateQueries({ queryKey: key });
        void queryClient.invalidateQueries({ queryKey: wallsKey });
      }, 1_500);
    },
  });

  const revert = useMutation({
    mutationFn: async (entry: UndoEntry) => {
      const path = { wallId: String(wallId) };
      return Promise.all(
        entry.before.map((b) =>
          unwrap(
            api.PATCH('/walls/{wallId}/posts/{postId}', {
              params: { path: { ...path, postId: String(b.id) } },
              body: { state: b.state, hidden: b.hidden, pinned: b.pinned },
            }),
          ),
        ),
      );
    },
    onMutate: (entry) => {
      for (const b of entry.before) overlay.current.delete(b.id);
      return queryClient.cancelQueries({ queryKey: key });
    },
    onSuccess: async (_restored, entry) => {
      setUndo(null);
      setSaid(`Undone: ${entry.label}.`);
      await queryClient.invalidateQueries({ queryKey: key });
      void queryClient.invalidateQueries({ queryKey: wallsKey });
    },
  });

  const busy = revert.isPending;
  const mutate = act.mutate;
  const run = useCallback(
    (verb: Verb, post?: Post) => {
      if (!mayModerate || busy) return;
      const now = listNow();
      const chosen = selectedRef.current;
      const current = now[Math.min(indexRef.current, now.length - 1)];
      const targets = post ? [post] : chosen.size > 0 ? now.filter((p) => chosen.has(p.id)) : current ? [current] : [];
      if (targets.length === 0) return;
      const expected = targets.map((p) => ({ ...p, ...(targets.length === 1 ? changeOf(verb, p) : setBy(verb)) }));
      for (const e of expected) overlay.current.set(e.id, { post: e, settled: false });
      bump();
      if (chosen.size > 0 && !post) setSelected(new Set());
      focusWanted.current = true;
      mutate({ verb, targets, expected });
    },
    [mayModerate, busy, listNow, mutate],
  );

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

  // one-key actions, anywhere on the screen but in a field or a dialog
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
        u: () => undo && !busy && revert.mutate(undo),
        '?': () => setHelp((h) => !h),
        Escape: () => setSelected(new Set()),
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
  }, [listNow, move, run, toggleSelect, undo, busy, revert]);

  const feedList: Feed[] = feeds.data?.data ?? [];
  const setFilter = (change: Partial<Filters>) => {
    setFilters((f) => ({ ...f, ...change }));
    setCurrent(0);
    setSelected(new Set());
  };
  const stateNames: Record<ListState, string> = {
    pending: 'Pending',
    approved: 'Approved',
    rejected: 'Rejected',
    hidden: 'Hidden',
    all: 'All',
  };

  return (
    <section className="screen queue">
      <WallHead wallId={wallId} screen="queue">
        <Button onClick={() => setHelp((h) => !h)} aria-expanded={help}>
          Keyboard shortcuts
        </Button>
      </WallHead>
      {help && (
        <div className="note shortcuts" id="shortcuts">
          <h2>Keyboard shortcuts</h2>
          <dl>
            <dt>j / ↓, k / ↑</dt>
            <dd>next, previous post</dd>
            <dt>a</dt>
            <dd>approve</dd>
            <dt>r</dt>
            <dd>reject</dd>
            <dt>h</dt>
            <dd>hide or unhide</dd>
            <dt>p</dt>
            <dd>pin or unpin</dd>
            <dt>x / space</dt>
            <dd>select; with a selection, a r h p act on all selected posts</dd>
            <dt>Esc</dt>
            <dd>clear the selection</dd>
            <dt>u</dt>
            <dd>undo the last action</dd>
          </dl>
        </div>
      )}
      <form className="filters" role="search" aria-label="Filter posts" onSubmit={(e) => e.preventDefault()}>
        <label>
          State
          <select value={filters.state} onChange={(e) => setFilter({ state: e.target.value as ListState })}>
            {(Object.keys(stateNames) as ListState[]).map((s) => (
              <option key={s} value={s}>
                {stateNames[s]}
              </option>
            ))}
          </select>
        </label>
        <label>
          Feed
          <select value={filters.feedId} onChange={(e) => setFilter({ feedId: e.target.value })}>
            <option value="">All feeds</option>
            {feedList.map((f) => (
              <option key={f.id} value={f.id}>
                {f.name}
              </option>
            ))}
          </select>
        </label>
        <label>
          Network
          <select value={filters.network} onChange={(e) => setFilter({ network: e.target.value })}>
            <option value="">All networks</option>
            {networks.map((n) => (
              <option key={n} value={n}>
                {n}
              </option>
            ))}
          </select>
        </label>
        <label>
          Media
          <select value={filters.media} onChange={(e) => setFilter({ media: e.target.value as Filters['media'] })}>
            <option value="">Any</option>
            <option value="image">Image</option>
            <option value="video">Video</option>
            <option value="text">Text only</option>
          </select>
        </label>
        <label className="grow">
          Search text
          <input type="search" value={search} onChange={(e) => setSearch(e.target.value)} placeholder="words, author" />
        </label>
      </form>
      <div className="queue-bar">
        <p className="count" aria-live="off">
          {posts.isSuccess &&
            `${list.length}${posts.hasNextPage ? '+' : ''} ${stateNames[filters.state].toLowerCase()} post${list.length === 1 ? '' : 's'}`}
          {filters.state === 'pending' && ' · oldest first'}
          <span className="live" title="checked every few seconds">
            {' '}
            · live
          </span>
        </p>
        {mayModerate && selected.size > 0 && (
          <div className="bulk" role="group" aria-label="Selected posts">
            <strong>{selected.size} selected</strong>
            <Button className="btn btn-approve" onClick={() => run('approve')} disabled={busy}>
              Approve selected
            </Button>
            <Button onClick={() => run('reject')} disabled={busy}>
              Reject selected
            </Button>
            <Button onClick={() => run('hide')} disabled={busy}>
              Hide selected
            </Button>
            <Button onClick={() => run('pin')} disabled={busy}>
              Pin selected
            </Button>
            <Button onClick={() => setSelected(new Set())}>Clear selection</Button>
          </div>
        )}
        {mayModerate && undo && (
          <Button onClick={() => revert.mutate(undo)} disabled={busy}>
            Undo: {undo.label}
          </Button>
        )}
      </div>
      <Announce message={said} />
      <ErrorNote error={act.error} title="The action was not done" />
      <ErrorNote error={revert.error} title="The undo failed" />
      {posts.isPending && <Loading what="posts" />}
      <ErrorNote error={posts.error} title="The posts could not be loaded" />
      {posts.isSuccess && list.length === 0 && !posts.hasNextPage && (
        <Empty>
          {filters.state === 'pending' ? (
            <p>The queue is empty: no post is waiting for a decision. New posts show up here as they arrive.</p>
          ) : (
            <p>No posts match these filters.</p>
          )}
        </Empty>
      )}
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

interface CardProps {
  post: Post;
  index: number;
  current: boolean;
  selected: boolean;
  held: string | null;
  mayModerate: boolean;
  busy: boolean;
  onRun(verb: Verb, post: Post): void;
  onToggle(id: number): void;
  onFocusIndex(index: number): void;
}

/** One post of the queue; re-rendered only when its own props change (500 of them move on every key). */
const PostCard = memo(function PostCard({
  post,
  index,
  current,
  selected,
  held,
  mayModerate,
  busy,
  onRun,
  onToggle,
  onFocusIndex,
}: CardProps) {
  const media = post.fileThumb || post.picture || post.file;
  const text = plainText(post);
  const author = post.authorName || post.username || 'unknown author';
  return (
    <li>
      <article
        className={`post${current ? ' current' : ''}${selected ? ' selected' : ''}`}
        data-index={index}
        data-post-id={post.id}
        tabIndex={current ? 0 : -1}
        aria-label={`${author} on ${post.networkName}, ${post.state}${post.hidden ? ', hidden' : ''}${selected ? ', selected' : ''}`}
        aria-describedby={`post-text-${post.id}`}
        onFocus={() => onFocusIndex(index)}
      >
        {media ? (
          <img className="post-media" src={media} alt={post.alt || ''} loading="lazy" />
        ) : (
          <div className="post-media post-media-none">Text</div>
        )}
        <div className="post-body">
          <p className="post-meta">
            {post.userPicture && (
              <img className="avatar" src={post.userPicture} alt="" onError={(e) => (e.currentTarget.hidden = true)} />
            )}
            <strong>{author}</strong>
            {post.username && post.authorName && <span className="muted"> @{post.username}</span>}
          </p>
          <p className="post-where">
            {post.networkName} · {post.feedName} · <When iso={post.createdAt} />
            {post.media === 'video' && ' · video'}
          </p>
          <p className="post-text" id={`post-text-${post.id}`}>
            {text.length > 600 ? `${text.slice(0, 600)}…` : text || <em>(no text)</em>}
          </p>
          <p className="post-state">
            <span className={`badge state-${post.state}`}>{post.state}</span>
            {post.hidden && <span className="badge badge-warn">hidden</span>}
            {post.pinned && <span className="badge">pinned</span>}
            {held && <span className="held">{held}</span>}
          </p>
        </div>
        {mayModerate && (
          <div className="post-actions">
            <label className="select">
              <input
                type="checkbox"
                checked={selected}
                onChange={() => onToggle(post.id)}
                aria-label={`Select post by ${author}`}
              />
              Select
            </label>
            <Button
              className="btn btn-approve"
              onClick={() => onRun('approve', post)}
              disabled={busy || post.state === 'approved'}
              aria-keyshortcuts="a"
            >
              Approve
            </Button>
            <Button
              onClick={() => onRun('reject', post)}
              disabled={busy || post.state === 'rejected'}
              aria-keyshortcuts="r"
            >
              Reject
            </Button>
            <Button onClick={() => onRun('hide', post)} disabled={busy} aria-keyshortcuts="h">
              {post.hidden ? 'Unhide' : 'Hide'}
            </Button>
            <Button onClick={() => onRun('pin', post)} disabled={busy} aria-keyshortcuts="p">
              {post.pinned ? 'Unpin' : 'Pin'}
            </Button>
          </div>
        )}
      </article>
    </li>
  );
});
