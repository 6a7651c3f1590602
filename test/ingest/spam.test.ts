// The spam rules end to end through real ingestion from a local Mastodon
// instance, on SQLite and PostgreSQL: `duplicate` and `burst` judged on the
// write path against the wall's stored posts and the poll's own (three
// identical posts in one poll: the 2nd and 3rd are held, the 1st is not; one
// author posting ten times in a minute: from the 5th on), each held post
// with its explained reason and detail; a moderator's approval clears one;
// changed rules, dry-run and applied to the stored posts, give the new
// result; the `account` rule holds a real payload's bot and a new account.
import { readFileSync } from 'node:fs';
import type { DecisionDetail } from '../../src/domain/decision.js';
import { afterEach, describe, expect, it } from 'vitest';
import { call } from '../helpers/http.js';
import { REPEATED_TEXT, TEN_DIFFERENT_TEXTS } from './fixtures/spam-texts.js';
import { makeToken } from '../http/manage/helpers.js';
import {
  account,
  INSTANCE_HOST,
  mastodonHtml,
  startMastodon,
  status,
  type MastodonFixture,
} from './fixtures/mastodon.js';
import { NOW, WALL, startHarness, storedPosts, type Harness } from './harness.js';

const id = (n: number) => `1139000000000${String(n).padStart(5, '0')}`;
/** `seconds` before NOW, as Mastodon writes it */
const at = (seconds: number) => new Date(NOW - seconds * 1000).toISOString();

let fx: MastodonFixture;
let h: Harness;
afterEach(async () => {
  await h?.close();
  await fx?.close();
});

const spammer = { ...account('dealz', 'Dealz Daily', '109000000000000077'), created_at: '2021-03-01T00:00:00.000Z' };
const people = ['ana', 'bo', 'cy', 'di'].map((u, i) => account(u, u.toUpperCase(), `10900000000000010${i}`));

/** The poll's statuses, newest first as Mastodon serves them. */
function seed() {
  fx.statuses.push(
    // the same text three times, from three people, 3, 2 and 1 minutes ago
    status({
      id: id(1),
      createdAt: at(180),
      html: mastodonHtml(REPEATED_TEXT, ['wallery']),
      account: people[0]!,
      tags: ['wallery'],
    }),
    status({
      id: id(2),
      createdAt: at(120),
      // the same words: case, punctuation and markup do not count
      html: mastodonHtml(
        `<strong>WIN</strong> a free cruise today! Follow the link below, and claim your prize before midnight!!`,
        ['wallery'],
      ),
      account: people[1]!,
      tags: ['wallery'],
    }),
    status({
      id: id(3),
      createdAt: at(60),
      html: mastodonHtml(REPEATED_TEXT, ['wallery']),
      account: people[2]!,
      tags: ['wallery'],
    }),
    // one author ten times within one minute, 50 s from the first to the last
    ...TEN_DIFFERENT_TEXTS.map((text, k) =>
      status({
        id: id(10 + k),
        createdAt: at(55 - k * 5),
        html: mastodonHtml(text, ['wallery']),
        account: spammer,
        tags: ['wallery'],
      }),
    ),
    // someone else in the same minute, and a long-past post of the spammer's
    status({
      id: id(30),
      createdAt: at(30),
      html: mastodonHtml('Sunrise over the harbour this morning', ['wallery']),
      account: people[3]!,
      tags: ['wallery'],
    }),
    status({
      id: id(31),
      createdAt: at(3600),
      html: mastodonHtml('Weekly deals are back soon', ['wallery']),
      account: spammer,
      tags: ['wallery'],
    }),
  );
  fx.statuses.sort((a, b) => String(b.id).localeCompare(String(a.id)));
}

interface Post {
  id: number;
  externalId: string;
  state: string;
  decision: {
    by: string;
    reason: string | null;
    detail: DecisionDetail | null;
  } | null;
}

async function spamWall(rules: unknown[]) {
  fx = await startMastodon();
  h = await startHarness(
    [{ id: 601, name: 'Mastodon #wallery', connector: { kind: 'mastodon', instance: fx.origin, hashtag: 'wallery' } }],
    { rules },
  );
  const { token } = await makeToken(h.server, 'moderator-ana');
  const manage = (method: string, path: string, body?: unknown) =>
    call(h.server.baseUrl, `/api/manage/v1${path}`, { method, body, headers: { authorization: `Bearer ${token}` } });
  const posts = async () => {
    const res = await manage('GET', `/walls/${WALL}/posts?limit=100`);
    expect(res.status, res.text).toBe(200);
    const byExternal = new Map<string, Post>();
    for (const p of (res.json() as { responseData: { data: Post[] } }).responseData.data)
      byExternal.set(p.externalId, p);
    return byExternal;
  };
  return { manage, posts };
}

const RULES = [
  { id: 'dup', kind: 'duplicate', action: 'hold', within: 60 },
  { id: 'flood', kind: 'burst', action: 'hold', by: 'author', count: 5, minutes: 1 },
];

const held = (posts: Map<string, Post>) =>
  [...posts.values()]
    .filter((p) => p.state === 'pending')
    .map((p) => p.externalId)
    .sort();

describe('spam rules through ingestion', () => {
  it('holds exactly the 2nd and 3rd of three identical posts and the 5th to 10th post of a burst, each explained', async () => {
    const { posts } = await spamWall(RULES);
    seed();
    expect((await h.poll())[0]).toMatchObject({ status: 'ok', inserted: 15 });
    const all = await posts();
    expect(held(all)).toEqual([id(2), id(3), ...[14, 15, 16, 17, 18, 19].map(id)].sort());
    expect(all.size).toBe(15);

    const first = all.get(id(1))!;
    expect(first).toMatchObject({ state: 'approved', decision: null });
    for (const n of [2, 3]) {
      const detail = {
        rule: 'dup',
        kind: 'duplicate',
        label: String(first.id),
        score: 0,
        threshold: 3,
        model: 'simhash-64',
      };
      expect(all.get(id(n))!.decision).toMatchObject({
        by: 'rule:dup',
        reason: `held: duplicate 0 '${first.id}' ≤ 3 — simhash-64`,
        detail,
      });
    }
    [14, 15, 16, 17, 18, 19].forEach((n, k) => {
      expect(all.get(id(n))!.decision).toMatchObject({
        by: 'rule:flood',
        reason: `held: burst ${5 + k} '@dealz@${INSTANCE_HOST}' ≥ 5`,
        detail: {
          rule: 'flood',
          kind: 'burst',
          label: `@dealz@${INSTANCE_HOST}`,
          score: 5 + k,
          threshold: 5,
          model: null,
        },
      });
    });
    // stored with the text's hash (16 hex digits, the same for the same words) and the author's account date
    const stored = await storedPosts(h, 601);
    const hashOf = (n: number) => stored.find((p) => p.external_id === id(n))!.text_hash;
    expect(hashOf(1)).toMatch(/^[0-9a-f]{16}$/);
    expect([hashOf(2), hashOf(3)]).toEqual([hashOf(1), hashOf(1)]);
    expect(stored.find((p) => p.external_id === id(10))).toMatchObject({
      author_bot: 0,
      author_created_at: Date.parse('2021-03-01T00:00:00.000Z'),
    });

    // a later poll: one more repeat of the text is held, naming the first post again
    fx.statuses.unshift(
      status({
        id: id(40),
        createdAt: at(10),
        html: mastodonHtml(REPEATED_TEXT, ['wallery']),
        account: people[3]!,
        tags: ['wallery'],
      }),
    );
    h.clock.now += 301_000;
    expect((await h.poll(601))[0]).toMatchObject({ status: 'ok', inserted: 1 });
    expect((await posts()).get(id(40))!.decision).toMatchObject({
      by: 'rule:dup',
      detail: { label: String(first.id) },
    });
  });

  it('an approval clears a held post; changed rules, dry-run then applied, give the new result', async () => {
    const { manage, posts } = await spamWall(RULES);
    seed();
    await h.poll();
    const before = await posts();
    const second = before.get(id(2))!;
    const ok = await manage('PATCH', `/walls/${WALL}/posts/${second.id}`, { state: 'approved', reason: 'a real fan' });
    expect(ok.status, ok.text).toBe(200);
    expect((ok.json() as { responseData: Post }).responseData).toMatchObject({
      state: 'approved',
      decision: { by: 'moderator-ana', reason: 'a real fan', detail: null },
    });

    // stricter: duplicates rejected, a burst only from the 8th post on, and rejected
    const stricter = {
      rules: [
        { id: 'dup', kind: 'duplicate', action: 'reject', within: 60, distance: 0 },
        { id: 'flood', kind: 'burst', action: 'reject', by: 'author', count: 8, minutes: 1 },
      ],
    };
    const dry = await manage('PUT', `/walls/${WALL}/rules?dryRun=true`, stricter);
    expect(dry.status, dry.text).toBe(200);
    // pending posts only: the 3rd repeat (the approved 2nd is not judged), and the 8th to 10th of the burst
    expect((dry.json() as { responseData: { counts: unknown } }).responseData.counts).toEqual([
      { ruleId: 'dup', matched: 1, changed: 1 },
      { ruleId: 'flood', matched: 3, changed: 3 },
    ]);
    expect(held(await posts())).toHaveLength(7); // nothing saved

    expect((await manage('PUT', `/walls/${WALL}/rules`, stricter)).status).toBe(200);
    const apply = await manage('POST', `/walls/${WALL}/rules/apply`, { includeApproved: true });
    expect(apply.status, apply.text).toBe(200);
    // approved posts too: now the 2nd repeat as well; never the 1st (the earlier post of a pair)
    expect((apply.json() as { responseData: { counts: unknown } }).responseData.counts).toEqual([
      { ruleId: 'dup', matched: 2, changed: 2 },
      { ruleId: 'flood', matched: 3, changed: 3 },
    ]);
    const after = await posts();
    const rejected = [...after.values()].filter((p) => p.state === 'rejected').map((p) => p.externalId);
    expect(rejected.sort()).toEqual([id(2), id(3), id(17), id(18), id(19)].sort());
    expect(after.get(id(1))!.state).toBe('approved');
    expect(after.get(id(3))!.decision).toMatchObject({
      by: 'rule:dup',
      reason: `rejected: duplicate 0 '${before.get(id(1))!.id}' ≤ 0 — simhash-64`,
    });
    expect(after.get(id(19))!.decision).toMatchObject({
      reason: `rejected: burst 10 '@dealz@${INSTANCE_HOST}' ≥ 8`,
    });
    // the 5th to 7th stay held, as the first rules left them
    expect(held(after)).toEqual([14, 15, 16].map(id));
  });

  it('a rule placed first decides before the history rules; the history rules before it come first', async () => {
    const { posts } = await spamWall([
      { id: 'dup', kind: 'duplicate', action: 'reject', within: 60 },
      { id: 'cruise', kind: 'keyword', action: 'approve', words: ['cruise'] },
      { id: 'flood', kind: 'burst', action: 'hold', by: 'author', count: 5, minutes: 1 },
      { id: 'lemons', kind: 'keyword', action: 'approve', words: ['lemons', 'kite'] },
    ]);
    seed();
    await h.poll();
    const all = await posts();
    // the duplicate rule comes before the keyword: the repeats are rejected; the first is approved by the keyword
    expect([1, 2, 3].map((n) => [all.get(id(n))!.state, all.get(id(n))!.decision?.by])).toEqual([
      ['approved', 'rule:cruise'],
      ['rejected', 'rule:dup'],
      ['rejected', 'rule:dup'],
    ]);
    // the burst rule comes before `lemons`: the 10th (kites) is held, the 1st (lemons) is the keyword's
    expect(all.get(id(19))!.decision?.by).toBe('rule:flood');
    expect(all.get(id(10))!.decision?.by).toBe('rule:lemons');
  });

  it('account: a real Mastodon payload from a bot account is held, and so is a two-day-old account', async () => {
    const payloads = new URL('../../../shared/connector-payloads/mastodon/public_mastosocial.json', import.meta.url);
    const real = (JSON.parse(readFileSync(payloads, 'utf8')) as Record<string, unknown>[]).find(
      (s) => (s.account as { bot: boolean }).bot === true,
    )!;
    const { posts } = await spamWall([{ id: 'bots', kind: 'account', action: 'hold', bot: true, minAgeDays: 7 }]);
    fx.statuses.push(
      // the recorded status, found by the wall's hashtag
      { ...real, tags: [{ name: 'wallery', url: `https://${INSTANCE_HOST}/tags/wallery` }] },
      status({
        id: id(50),
        createdAt: at(60),
        html: mastodonHtml('Hello, I just joined!', ['wallery']),
        account: {
          ...account('newbie', 'Newbie', '109000000000000090'),
          created_at: new Date(NOW - 2.5 * 86_400_000).toISOString(),
        },
        tags: ['wallery'],
      }),
      status({
        id: id(51),
        createdAt: at(30),
        html: mastodonHtml('An old hand here', ['wallery']),
        account: people[0]!,
        tags: ['wallery'],
      }),
    );
    await h.poll();
    const all = await posts();
    expect(all.get(String(real.id))).toMatchObject({
      state: 'pending',
      decision: {
        by: 'rule:bots',
        reason: "held: account 'bot'",
        detail: { rule: 'bots', kind: 'account', label: 'bot', score: null, threshold: null, model: null },
      },
    });
    expect(all.get(id(50))!.decision).toMatchObject({ reason: "held: account 'new account (2 days)'" });
    expect(all.get(id(51))).toMatchObject({ state: 'approved', decision: null });
    const stored = await storedPosts(h, 601);
    expect(stored.find((p) => p.external_id === String(real.id))).toMatchObject({
      author_bot: 1,
      author_created_at: Date.parse((real.account as { created_at: string }).created_at),
    });
  });
});
