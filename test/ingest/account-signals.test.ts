// What the `account` rule reads, mapped from the real payloads of
// ../shared/connector-payloads: Mastodon's `account.bot` and
// `account.created_at`, Lemmy's `creator.bot_account` and
// `creator.published`, Bluesky's `author.createdAt` (no bot flag there), each
// into the stored columns `author_bot` and `author_created_at`.
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { postViewPost as blueskyPost } from '../../src/ingest/bluesky.js';
import { postViewPost as lemmyPost } from '../../src/ingest/lemmy.js';
import { statusPost } from '../../src/ingest/mastodon.js';
import { toPostFields } from '../../src/ingest/normalize.js';
import type { UpstreamPost } from '../../src/ingest/connector.js';

const PAYLOADS = fileURLToPath(new URL('../../../shared/connector-payloads/', import.meta.url));
type Json = Record<string, unknown>;
const read = (path: string) => JSON.parse(readFileSync(`${PAYLOADS}${path}`, 'utf8')) as unknown;
const columns = (post: UpstreamPost | null) => {
  const f = toPostFields(post!, 'Net', 0);
  return { author_bot: f.author_bot, author_created_at: f.author_created_at };
};

describe.skipIf(!existsSync(PAYLOADS))('account signals from real payloads', () => {
  it('Mastodon: the bot flag and the account date of every status', () => {
    const statuses = read('mastodon/public_mastosocial.json') as Json[];
    const mapped = statuses.map((s) => columns(statusPost(s, 'https://mastodon.social')));
    expect(mapped).toEqual(
      statuses.map((s) => {
        const a = s.account as { bot: boolean; created_at: string };
        return { author_bot: a.bot ? 1 : 0, author_created_at: Date.parse(a.created_at) };
      }),
    );
    expect(mapped.filter((m) => m.author_bot === 1)).toHaveLength(1);
  });

  it('Lemmy: bot_account and published (zone-less times read as UTC)', () => {
    const views = (read('lemmy/lk_getPostsResponse.json') as { posts: Json[] }).posts;
    expect(views.map((v) => columns(lemmyPost(v)))).toEqual(
      views.map((v) => {
        const c = v.creator as { bot_account: boolean; published: string };
        return { author_bot: c.bot_account ? 1 : 0, author_created_at: Date.parse(c.published) };
      }),
    );
    expect(views.some((v) => (v.creator as { bot_account: boolean }).bot_account)).toBe(true);
    const older = (read('lemmy/spud_post-list-all-hot.json') as { posts: Json[] }).posts[0]!;
    const published = (older.creator as { published: string }).published;
    expect(published).not.toMatch(/Z$/);
    expect(columns(lemmyPost(older)).author_created_at).toBe(Date.parse(`${published}Z`));
  });

  it('Bluesky: the author view’s createdAt; never a bot', () => {
    const feed = (read('bluesky/feed_bskyteam.json') as { feed: { post: Json }[] }).feed;
    for (const { post } of feed) {
      const mapped = blueskyPost(post);
      if (mapped === null || 'withheld' in mapped) continue;
      expect(columns(mapped)).toEqual({
        author_bot: 0,
        author_created_at: Date.parse((post.author as { createdAt: string }).createdAt),
      });
    }
  });
});
