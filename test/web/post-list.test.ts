// PostList, the component's model of a wall: pages, live upserts, removals and
// polls in any interleaving end in the server's list, in order, each post once.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PostList } from '../../web/embed/post-list.js';
import type { EmbedPost } from '../../web/embed/types.js';

const post = (id: number, sort = String(id).padStart(6, '0')) => ({ id: String(id), sort }) as EmbedPost;
const desc = (posts: EmbedPost[]) => [...posts].sort((a, b) => (a.sort < b.sort ? 1 : -1));

/** The server: keyset pages over its current posts. */
function page(server: EmbedPost[], limit: number, cursor: string | null) {
  const rest = desc(server).filter((p) => cursor === null || p.sort < cursor);
  const posts = rest.slice(0, limit);
  return { posts, nextCursor: rest.length > limit ? posts[posts.length - 1]!.sort : null };
}

describe('PostList', () => {
  it('keeps a live post that sorts below the loaded range for the cursor', () => {
    const list = new PostList();
    list.reset([post(9), post(8)], '000008');
    expect(list.upsert(post(3))).toBe('ignored');
    expect(list.upsert(post(10))).toBe('added');
    expect(list.upsert(post(10))).toBe('updated');
    expect(list.posts.map((p) => p.id)).toEqual(['10', '9', '8']);
    list.appendPage([post(3), post(2)], null);
    expect(list.upsert(post(1))).toBe('added'); // everything is loaded: nothing left to the cursor
    expect(list.posts.map((p) => p.id)).toEqual(['10', '9', '8', '3', '2', '1']);
  });

  it('a poll drops what vanished from the first page and adds what appeared', () => {
    const list = new PostList();
    list.reset([post(9), post(8), post(7)], '000007');
    list.appendPage([post(5)], null);
    const added = list.mergeFirstPage([post(11), post(9), post(7)], '000007');
    expect(added.map((p) => p.id)).toEqual(['11']);
    expect(list.posts.map((p) => p.id)).toEqual(['11', '9', '7', '5']);
  });

  it('a page read before a live change does not undo it', () => {
    const list = new PostList();
    list.reset([post(9), post(8), post(7)], '000007');
    // a poll in flight while a post arrives and another goes
    let since = list.mark();
    list.upsert(post(12));
    list.remove('8');
    expect(list.mergeFirstPage([post(9), post(8), post(7)], '000007', since)).toEqual([]);
    expect(list.posts.map((p) => p.id)).toEqual(['12', '9', '7']);
    // a next page in flight while one of its posts is removed live
    since = list.mark();
    list.remove('5');
    list.appendPage([post(6), post(5), post(4)], null, since);
    expect(list.posts.map((p) => p.id)).toEqual(['12', '9', '7', '6', '4']);
    // an edit that arrived live is not replaced by the older copy of a later poll read before it
    since = list.mark();
    list.upsert({ ...post(9), html: 'edited' } as EmbedPost);
    list.mergeFirstPage([post(12), post(9), post(7)], '000007', since);
    expect(list.posts.find((p) => p.id === '9')!.html).toBe('edited');
  });

  it('a post unpinned live while the next page is on its way lands in its place', () => {
    const pinned = (id: number) => post(id, `1.${String(id).padStart(6, '0')}`);
    const list = new PostList();
    list.reset([pinned(3), post(9), post(8)], '000008');
    const since = list.mark();
    // the server reads the next page (7, 6) — then post 3 is unpinned and sorts between 7 and 6
    const unpinned = post(3, '000006.5');
    expect(list.upsert(unpinned)).toBe('ignored');
    list.appendPage([post(7), post(6)], '000006', since);
    expect(list.posts.map((p) => p.id)).toEqual(['9', '8', '7', '3', '6']);
  });

  it('ends with every server post exactly once, in order, whatever the interleaving', () => {
    const op = fc.oneof(
      fc.record({ kind: fc.constant('create' as const) }),
      fc.record({ kind: fc.constant('remove' as const), pick: fc.nat() }),
      fc.record({ kind: fc.constant('more' as const) }),
      fc.record({ kind: fc.constant('poll' as const) }),
      // a page requested now and applied at a later 'land': live changes happen in between
      fc.record({ kind: fc.constant('sendMore' as const) }),
      fc.record({ kind: fc.constant('sendPoll' as const) }),
      fc.record({ kind: fc.constant('land' as const) }),
    );
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 30 }),
        fc.integer({ min: 1, max: 7 }),
        fc.array(op, { maxLength: 40 }),
        (initial, limit, ops) => {
          let server = Array.from({ length: initial }, (_, i) => post(i + 1));
          let next = initial + 1;
          const list = new PostList();
          const first = page(server, limit, null);
          list.reset(first.posts, first.nextCursor);
          type Flight = { since: number; page: ReturnType<typeof page> };
          let more: Flight | null = null;
          let poll: Flight | null = null;
          for (const o of ops) {
            if (o.kind === 'sendMore' && !more && list.nextCursor) {
              more = { since: list.mark(), page: page(server, limit, list.nextCursor) };
            } else if (o.kind === 'sendPoll' && !poll) {
              poll = { since: list.mark(), page: page(server, limit, null) };
            } else if (o.kind === 'land') {
              if (more) list.appendPage(more.page.posts, more.page.nextCursor, more.since);
              if (poll) list.mergeFirstPage(poll.page.posts, poll.page.nextCursor, poll.since);
              more = poll = null;
            }
            if (o.kind === 'create') {
              const p = post(next++);
              server.push(p);
              list.upsert(p);
            } else if (o.kind === 'remove' && server.length > 0) {
              const gone = server[o.pick % server.length]!;
              server = server.filter((p) => p !== gone);
              list.remove(gone.id);
            } else if (o.kind === 'more' && list.nextCursor && !more) {
              const p = page(server, limit, list.nextCursor);
              list.appendPage(p.posts, p.nextCursor);
            } else if (o.kind === 'poll') {
              const p = page(server, limit, null);
              list.mergeFirstPage(p.posts, p.nextCursor);
            }
          }
          if (more) list.appendPage(more.page.posts, more.page.nextCursor, more.since);
          if (poll) list.mergeFirstPage(poll.page.posts, poll.page.nextCursor, poll.since);
          while (list.nextCursor) {
            const p = page(server, limit, list.nextCursor);
            list.appendPage(p.posts, p.nextCursor);
          }
          expect(list.posts.map((p) => p.id)).toEqual(desc(server).map((p) => p.id));
        },
      ),
      { numRuns: 300 },
    );
  });
});
