// Moderation through the management API, observed through the public API
// v2: hide, pin, highlight, call-to-action, content, bulk actions.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '../../helpers/http.js';
import { describeSample } from '../../helpers/sample.js';
import { c2Posts, data, failure, fields, startManageServer, w2Posts, type ManageServer } from './helpers.js';

interface Post {
  id: number;
  wallId: number;
  feedId: number;
  media: string;
  content: string;
  createdAt: string;
  updatedAt: string;
  hidden: boolean;
  pinned: boolean;
  highlighted: boolean;
  cta: Record<string, unknown> | null;
  products: { productId: number; productName: string; left: number; top: number; position: number }[];
}
interface Page<T> {
  data: T[];
  nextCursor: string | null;
}

const CTA = {
  color: '#ffffff',
  background: '#0a7cff',
  status: 1,
  url: 'https://shop.example.com/look/1',
  text: 'Shop the look',
};

describeSample('moderation', () => {
  let m: ManageServer;
  beforeAll(async () => {
    m = await startManageServer();
  });
  afterAll(async () => m?.close());

  const ids = (posts: Record<string, unknown>[]) => posts.map((p) => Number(p.postId));
  const c5 = (postId: number) => m.v2(`/commerce/getGalleryProductByID/7011/${postId}/`);

  describe('the moderation view', () => {
    it('lists every post, hidden ones included, newest first, page by page', async () => {
      const all: Page<Post> = data(await m.api('GET', '/walls/7011/posts?limit=200'));
      expect(all.data).toHaveLength(60);
      expect(all.nextCursor).toBeNull();
      const keys = all.data.map((p) => [Date.parse(p.createdAt), p.id] as const);
      const sorted = [...keys].sort((a, b) => b[0] - a[0] || b[1] - a[1]);
      expect(keys).toEqual(sorted);
      expect(all.data.filter((p) => p.hidden)).toHaveLength(3);

      const walked: number[] = [];
      let cursor: string | null = null;
      do {
        const page: Page<Post> = data(
          await m.api('GET', `/walls/7011/posts?limit=7${cursor ? `&cursor=${cursor}` : ''}`),
        );
        walked.push(...page.data.map((p) => p.id));
        cursor = page.nextCursor;
      } while (cursor !== null);
      expect(walked).toEqual(all.data.map((p) => p.id));
    });

    it('filters by status, feed and media', async () => {
      const get = async (q: string) => data<Page<Post>>(await m.api('GET', `/walls/7011/posts?limit=200&${q}`)).data;
      const hidden = await get('status=hidden');
      expect(hidden.map((p) => p.hidden)).toEqual([true, true, true]);
      expect(await get('status=visible')).toHaveLength(57);
      const feed = await get('feedId=7101');
      expect(feed).toHaveLength(20);
      expect(feed.every((p) => p.feedId === 7101)).toBe(true);
      const videos = await get('media=video&status=visible');
      expect(videos.length).toBeGreaterThan(0);
      expect(videos.every((p) => p.media === 'video' && !p.hidden)).toBe(true);
    });

    it('shows a post with its moderation state and product tags; a post of another wall is 404', async () => {
      const post: Post = data(await m.api('GET', '/walls/7011/posts/17010'));
      expect(post).toMatchObject({ id: 17010, wallId: 7011, feedId: 7101, hidden: false, pinned: false });
      expect(post.cta).toEqual({
        color: '#ffffff',
        background: '#0a7cff',
        status: 1,
        url: 'https://shop.example.com/cta/17010',
        text: 'Shop now',
      });
      expect(post.products.map((t) => [t.productId, t.left, t.top, t.position])).toEqual([
        [7502, 94.5, 14, 0],
        [7503, 12.5, 80, 1],
      ]);
      failure(await m.api('GET', '/walls/7011/posts/17086'), 404, 'post 17086 not found');
      failure(await m.api('GET', '/walls/424242/posts/17086'), 404, 'wall 424242 not found');
    });
  });

  describe('alt text', () => {
    it('the management record carries the main media’s and each child’s alt text; v2’s childNode stays image and video', async () => {
      const db = m.srv.store.db;
      const row = await db
        .selectFrom('posts')
        .select(['id', 'children'])
        .where('wall_id', '=', 7011)
        .where('hidden', '=', 0)
        .where('children', '<>', '[]')
        .orderBy('id')
        .executeTakeFirstOrThrow();
      const children = JSON.parse(row.children) as { image: string; video: string }[];
      const withAlt = children.map((c, i) => (i === 0 ? { ...c, alt: 'a heron at dawn' } : c));
      await db
        .updateTable('posts')
        .set({ alt: 'a heron at dawn', children: JSON.stringify(withAlt) })
        .where('id', '=', row.id)
        .execute();
      m.srv.app.ctx.changes.wallChanged(7011); // as every write does: cached reads of the wall go
      try {
        const post = data<{ alt: string; children: unknown[] }>(await m.api('GET', `/walls/7011/posts/${row.id}`));
        expect(post.alt).toBe('a heron at dawn');
        expect(post.children).toEqual(withAlt);
        const served = (await w2Posts(m, 7011)).find((p) => Number(p.postId) === row.id)!;
        expect(served.childNode).toEqual(children);
        const plain = data<{ data: { id: number; alt: string }[] }>(await m.api('GET', '/walls/7011/posts?limit=200'));
        expect(plain.data.filter((p) => p.id !== row.id).every((p) => p.alt === '')).toBe(true);
      } finally {
        await db.updateTable('posts').set({ alt: '', children: row.children }).where('id', '=', row.id).execute();
        m.srv.app.ctx.changes.wallChanged(7011);
      }
    });
  });

  describe('one post', () => {
    it('hide removes the post from W2, C2 and C5; unhide brings it back', async () => {
      expect(ids(await w2Posts(m, 7011))).toContain(17007);
      const changes = await m.changesDuring(async () => {
        expect(data<Post>(await m.api('PATCH', '/walls/7011/posts/17007', { hidden: true })).hidden).toBe(true);
      });
      expect(changes).toEqual([{ kind: 'wall', wallId: 7011 }]);
      expect(ids(await w2Posts(m, 7011))).not.toContain(17007);
      expect(ids(await c2Posts(m, 7011))).not.toContain(17007);
      const detail = await c5(17007);
      expect(detail.status).toBe(404);
      expect(detail.json().responseMessage).toBe(MSG.postNotFound);
      // the moderation view still has it
      expect(data<Post>(await m.api('GET', '/walls/7011/posts/17007')).hidden).toBe(true);

      data(await m.api('PATCH', '/walls/7011/posts/17007', { hidden: false }));
      expect(ids(await w2Posts(m, 7011))).toContain(17007);
      expect(ids(await c2Posts(m, 7011))).toContain(17007);
      expect((await c5(17007)).status).toBe(200);
    });

    it('pin moves the post first in W2 and C2; unpin puts it back', async () => {
      const before = ids(await w2Posts(m, 7011));
      const pinnedCount = (await w2Posts(m, 7011)).filter((p) => p.postPin === 1).length;
      expect(before.indexOf(17019)).toBeGreaterThanOrEqual(pinnedCount);
      data(await m.api('PATCH', '/walls/7011/posts/17019', { pinned: true }));
      const w2 = await w2Posts(m, 7011);
      const at = ids(w2).indexOf(17019);
      expect(at).toBeLessThan(pinnedCount + 1);
      expect(w2.slice(0, pinnedCount + 1).every((p) => p.postPin === 1)).toBe(true);
      expect(w2[at]!.postPin).toBe(1);
      const c2 = await c2Posts(m, 7011);
      expect(c2.slice(0, pinnedCount + 1).map((p) => p.postId)).toContain(17019);
      // the whole list is in contract order: pinned first, then newest, then larger id
      const view = data<Page<Post>>(await m.api('GET', '/walls/7011/posts?limit=200&status=visible')).data;
      const expected = [...view]
        .sort(
          (a, b) =>
            Number(b.pinned) - Number(a.pinned) || Date.parse(b.createdAt) - Date.parse(a.createdAt) || b.id - a.id,
        )
        .map((p) => p.id);
      expect(ids(w2)).toEqual(expected);
      data(await m.api('PATCH', '/walls/7011/posts/17019', { pinned: false }));
      expect(ids(await w2Posts(m, 7011))).toEqual(before);
    });

    it('highlight shows in both families and the post detail', async () => {
      data(await m.api('PATCH', '/walls/7011/posts/17007', { highlighted: true }));
      expect((await w2Posts(m, 7011)).find((p) => p.postId === '17007')!.postHighlight).toBe(1);
      expect((await c2Posts(m, 7011)).find((p) => p.postId === 17007)!.postHighlight).toBe(1);
      const detail = (await c5(17007)).json().responseData as { postDetail: { highlight: number }[] };
      expect(detail.postDetail[0]!.highlight).toBe(1);
      data(await m.api('PATCH', '/walls/7011/posts/17007', { highlighted: false }));
      expect((await w2Posts(m, 7011)).find((p) => p.postId === '17007')!.postHighlight).toBe(0);
    });

    it('a call-to-action shows in both families; clearing it restores each family’s empty form', async () => {
      data(await m.api('PATCH', '/walls/7011/posts/17019', { cta: CTA }));
      const w = (await w2Posts(m, 7011)).find((p) => p.postId === '17019')!;
      expect([w.CTAcolor, w.CTAbackground, w.CTAStatus, w.CTAurl, w.CTAtext]).toEqual([
        CTA.color,
        CTA.background,
        1,
        CTA.url,
        CTA.text,
      ]);
      const c = (await c2Posts(m, 7011)).find((p) => p.postId === 17019)!;
      expect([c.CTAcolor, c.CTAbackground, c.CTAStatus, c.CTAurl, c.CTAtext]).toEqual([
        CTA.color,
        CTA.background,
        1,
        CTA.url,
        CTA.text,
      ]);
      const xml = await m.v2('/widget/posts/7011', { format: 'xml', limit: '500' });
      expect(xml.text).toContain(`<CTAurl>${CTA.url}</CTAurl>`);

      expect(data<Post>(await m.api('PATCH', '/walls/7011/posts/17019', { cta: null })).cta).toBeNull();
      const w0 = (await w2Posts(m, 7011)).find((p) => p.postId === '17019')!;
      expect([w0.CTAcolor, w0.CTAbackground, w0.CTAStatus, w0.CTAurl, w0.CTAtext]).toEqual([
        null,
        null,
        null,
        null,
        null,
      ]);
      const c0 = (await c2Posts(m, 7011)).find((p) => p.postId === 17019)!;
      expect([c0.CTAcolor, c0.CTAbackground, c0.CTAStatus, c0.CTAurl, c0.CTAtext]).toEqual(['', '', 0, '', '']);
    });

    it('edits the content: every family shows the new text, updated today', async () => {
      const text = 'Edited <b>by</b> a moderator & co';
      const post: Post = data(await m.api('PATCH', '/walls/7011/posts/17004', { content: text }));
      expect(post.content).toBe(text);
      expect(post.updatedAt).toBe(new Date(m.srv.clock.now).toISOString());
      const w = (await w2Posts(m, 7011)).find((p) => p.postId === '17004')!;
      expect([w.content, w.postUpdatedAt]).toEqual([text, '15/01/2026']);
      expect((await c2Posts(m, 7011)).find((p) => p.postId === 17004)!.postContent).toBe(text);
      const detail = (await c5(17004)).json().responseData as { postDetail: { Postcontent: string }[] };
      expect(detail.postDetail[0]!.Postcontent).toBe(text);
      expect(data<Post>(await m.api('PATCH', '/walls/7011/posts/17004', { content: '' })).content).toBe('');
    });

    it('refuses a post of another wall and announces nothing', async () => {
      const changes = await m.changesDuring(async () => {
        failure(await m.api('PATCH', '/walls/7011/posts/17086', { hidden: true }), 404);
      });
      expect(changes).toEqual([]);
      expect((await m.v2('/commerce/getGalleryPosts/7014/', {}, 'Demo-com-key-0001')).text).toContain('17088');
    });
  });

  describe('bulk actions', () => {
    it('hides several posts at once', async () => {
      const changes = await m.changesDuring(async () => {
        const done = data(
          await m.api('POST', '/walls/7011/posts/bulk', { postIds: [17001, 17022, 17001, 17016], action: 'hide' }),
        );
        // 17016 was already hidden; the duplicate counts once
        expect(done).toEqual({ action: 'hide', postIds: [17001, 17022, 17016], changed: 2 });
      });
      expect(changes).toEqual([{ kind: 'wall', wallId: 7011 }]);
      const visible = ids(await w2Posts(m, 7011));
      expect(visible).not.toContain(17001);
      expect(visible).not.toContain(17022);
      data(await m.api('POST', '/walls/7011/posts/bulk', { postIds: [17001, 17022], action: 'unhide' }));
      expect(ids(await w2Posts(m, 7011))).toEqual(expect.arrayContaining([17001, 17022]));
    });

    it('is atomic: one id that is not a post of the wall changes nothing', async () => {
      const before = await w2Posts(m, 7011);
      const beforeView = data<Page<Post>>(await m.api('GET', '/walls/7011/posts?limit=200'));
      for (const action of ['hide', 'pin', 'highlight', 'clearCta'] as const) {
        const changes = await m.changesDuring(async () => {
          const errors = failure(
            await m.api('POST', '/walls/7011/posts/bulk', { postIds: [17001, 17086, 17004, 999999], action }),
            400,
          );
          expect(errors).toEqual([
            { field: 'postIds[1]', message: 'post 17086 is not a post of wall 7011' },
            { field: 'postIds[3]', message: 'post 999999 is not a post of wall 7011' },
          ]);
        });
        expect(changes).toEqual([]);
      }
      expect(await w2Posts(m, 7011)).toEqual(before);
      expect(data(await m.api('GET', '/walls/7011/posts?limit=200'))).toEqual(beforeView);
    });

    it('pins, highlights and sets a call-to-action on several posts, in both families', async () => {
      const postIds = [17007, 17019];
      data(await m.api('POST', '/walls/7011/posts/bulk', { postIds, action: 'pin' }));
      data(await m.api('POST', '/walls/7011/posts/bulk', { postIds, action: 'highlight' }));
      data(await m.api('POST', '/walls/7011/posts/bulk', { postIds, action: 'setCta', cta: CTA }));
      const w2 = (await w2Posts(m, 7011)).filter((p) => postIds.includes(Number(p.postId)));
      expect(w2.map((p) => [p.postPin, p.postHighlight, p.CTAtext])).toEqual([
        [1, 1, CTA.text],
        [1, 1, CTA.text],
      ]);
      const c2 = (await c2Posts(m, 7011)).filter((p) => postIds.includes(Number(p.postId)));
      expect(c2.map((p) => [p.postPin, p.postHighlight, p.CTAurl])).toEqual([
        [1, 1, CTA.url],
        [1, 1, CTA.url],
      ]);
      for (const action of ['unpin', 'unhighlight', 'clearCta'])
        data(await m.api('POST', '/walls/7011/posts/bulk', { postIds, action }));
      const back = (await w2Posts(m, 7011)).filter((p) => postIds.includes(Number(p.postId)));
      expect(back.map((p) => [p.postPin, p.postHighlight, p.CTAtext])).toEqual([
        [0, 0, null],
        [0, 0, null],
      ]);
    });

    it('takes up to 500 ids; setCta needs a cta', async () => {
      const many = Array.from({ length: 501 }, (_, i) => 17001 + i);
      expect(
        fields(failure(await m.api('POST', '/walls/7011/posts/bulk', { postIds: many, action: 'hide' }), 400)),
      ).toEqual(['postIds']);
      expect(
        fields(failure(await m.api('POST', '/walls/7011/posts/bulk', { postIds: [], action: 'hide' }), 400)),
      ).toEqual(['postIds']);
      expect(
        failure(await m.api('POST', '/walls/7011/posts/bulk', { postIds: [17001], action: 'setCta' }), 400),
      ).toEqual([{ field: 'cta', message: 'cta is required for setCta' }]);
      // 500 ids of which most do not exist: each one is named, nothing changes
      const errors = failure(
        await m.api('POST', '/walls/7011/posts/bulk', { postIds: many.slice(0, 500), action: 'hide' }),
        400,
      );
      expect(errors.length).toBe(500 - 60);
      expect(ids(await w2Posts(m, 7011))).toContain(17001);
    });
  });
});
