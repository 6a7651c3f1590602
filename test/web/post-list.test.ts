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

  it('ends with every server post exactly once, in order, whatever the interleaving', () => {
    const op = fc.oneof(
      fc.record({ kind: fc.constant('create' as const) }),
      fc.record({ kind: fc.constant('remove' as const), pick: fc.nat() }),
      fc.record({ kind: fc.constant('more' as const) }),
      fc.record({ kind: fc.constant('poll' as const) }),
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
          for (const o of ops) {
            if (o.kind === 'create') {
              const p = post(next++);
              server.push(p);
              list.upsert(p);
            } else if (o.kind === 'remove' && server.length > 0) {
              const gone = server[o.pick % server.length]!;
              server = server.filter((p) => p !== gone);
              list.remove(gone.id);
            } else if (o.kind === 'more' && list.nextCursor) {
              const p = page(server, limit, list.nextCursor);
              list.appendPage(p.posts, p.nextCursor);
            } else if (o.kind === 'poll') {
              const p = page(server, limit, null);
              list.mergeFirstPage(p.posts, p.nextCursor);
            }
          }
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
