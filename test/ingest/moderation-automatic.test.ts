// Issue 32's walk-through: a manual wall with every kind of automatic rule at
// once — a language rule (allow English), a duplicate rule, a burst rule and
// an image-safety rule — fed by a local Mastodon instance with English,
// Portuguese and German posts, one text posted three times and one author
// posting ten times in a minute, on SQLite and PostgreSQL. Exactly the
// expected posts are held by a rule, each with its explained reason and
// detail; the rest wait for a moderator as a manual wall's posts do (no rule
// decided them); an approval clears one; changed rules, re-applied, give the
// new result. (The image rule's own flow, pictures classified by the media
// worker, is test/media/image-check.test.ts: these posts have no pictures,
// and the rule leaves them to the others.)
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
import { NOW, WALL, startHarness, type Harness } from './harness.js';

const id = (n: number) => `1139500000000${String(n).padStart(5, '0')}`;
const at = (seconds: number) => new Date(NOW - seconds * 1000).toISOString();

let fx: MastodonFixture;
let h: Harness;
afterEach(async () => {
  await h?.close();
  await fx?.close();
});

const PORTUGUESE = 'Que noite incrível no festival, a banda tocou todas as músicas que eu queria ouvir';
const GERMAN = 'Was für ein großartiger Abend auf dem Festival, die Band hat alle meine Lieblingslieder gespielt';

const people = ['ana', 'bo', 'cy', 'di', 'ed'].map((u, i) => account(u, u.toUpperCase(), `10950000000000010${i}`));
const spammer = account('dealz', 'Dealz Daily', '109500000000000077');

const RULES = [
  { id: 'lang', kind: 'language', action: 'hold', languages: ['en'], mode: 'allow' },
  { id: 'dup', kind: 'duplicate', action: 'hold', within: 60 },
  { id: 'flood', kind: 'burst', action: 'hold', by: 'author', count: 5, minutes: 1 },
  { id: 'nsfw', kind: 'image', action: 'blur' },
];

function seed() {
  const post = (n: number, seconds: number, text: string, who: Record<string, unknown>) =>
    status({
      id: id(n),
      createdAt: at(seconds),
      html: mastodonHtml(text, ['wallery']),
      account: who,
      tags: ['wallery'],
    });
  fx.statuses.push(
    post(1, 300, 'The harbour lights at dusk, seen from the pier with the whole crew', people[0]!),
    post(2, 290, PORTUGUESE, people[1]!),
    post(3, 280, GERMAN, people[2]!),
    post(4, 180, REPEATED_TEXT, people[3]!),
    post(5, 120, REPEATED_TEXT, people[4]!),
    post(6, 60, REPEATED_TEXT, people[0]!),
    ...TEN_DIFFERENT_TEXTS.map((text, k) => post(10 + k, 55 - k * 5, text, spammer)),
  );
  fx.statuses.sort((a, b) => String(b.id).localeCompare(String(a.id)));
}

interface Post {
  id: number;
  externalId: string;
  state: string;
  decision: { by: string; reason: string | null; detail: Record<string, unknown> | null } | null;
}

async function wall() {
  fx = await startMastodon();
  h = await startHarness(
    [{ id: 611, name: 'Mastodon #wallery', connector: { kind: 'mastodon', instance: fx.origin, hashtag: 'wallery' } }],
    { rules: RULES, moderation: 'manual' },
  );
  const { token } = await makeToken(h.server, 'moderator-mo');
  const manage = (method: string, path: string, body?: unknown) =>
    call(h.server.baseUrl, `/api/manage/v1${path}`, { method, body, headers: { authorization: `Bearer ${token}` } });
  const posts = async () => {
    const res = await manage('GET', `/walls/${WALL}/posts?limit=100&state=all`);
    expect(res.status, res.text).toBe(200);
    return new Map(
      (res.json() as { responseData: { data: Post[] } }).responseData.data.map((p) => [p.externalId, p] as const),
    );
  };
  return { manage, posts };
}

/** The posts a rule decided, each by its rule: external id → rule id. */
const byRule = (posts: Map<string, Post>) =>
  Object.fromEntries(
    [...posts.values()]
      .filter((p) => p.decision?.by.startsWith('rule:'))
      .map((p) => [p.externalId, p.decision!.by.slice('rule:'.length)])
      .sort(([a], [b]) => a!.localeCompare(b!)),
  );

const BURST_HELD = [14, 15, 16, 17, 18, 19];

describe('automatic moderation: every kind of rule on one manual wall', () => {
  it('holds exactly the expected posts, each with why; an approval clears one; changed rules re-applied give the new result', async () => {
    const { manage, posts } = await wall();
    seed();
    expect((await h.poll())[0]).toMatchObject({ status: 'ok', inserted: 16 });
    const all = await posts();
    expect(all.size).toBe(16);
    expect(byRule(all)).toEqual({
      [id(2)]: 'lang',
      [id(3)]: 'lang',
      [id(5)]: 'dup',
      [id(6)]: 'dup',
      ...Object.fromEntries(BURST_HELD.map((n) => [id(n), 'flood'])),
    });
    // every post waits (a manual wall); those no rule decided carry no decision
    expect([...all.values()].every((p) => p.state === 'pending')).toBe(true);
    for (const n of [1, 4, 10, 11, 12, 13]) expect(all.get(id(n))!.decision, id(n)).toBeNull();
    // each held post says why: the rule, what it found, the threshold and the model
    expect(all.get(id(2))!.decision).toMatchObject({
      reason: "held: language 'pt' — eld 2.1.0",
      detail: { rule: 'lang', kind: 'language', label: 'pt', model: 'eld 2.1.0' },
    });
    expect(all.get(id(3))!.decision).toMatchObject({ reason: "held: language 'de' — eld 2.1.0" });
    const first = all.get(id(4))!;
    expect(all.get(id(6))!.decision).toMatchObject({
      reason: `held: duplicate 0 '${first.id}' ≤ 3 — simhash-64`,
      detail: { kind: 'duplicate', label: String(first.id), score: 0, threshold: 3 },
    });
    expect(all.get(id(19))!.decision).toMatchObject({
      reason: `held: burst 10 '@dealz@${INSTANCE_HOST}' ≥ 5`,
      detail: { kind: 'burst', score: 10, threshold: 5 },
    });

    // a moderator approves the Portuguese post: the rule's decision and detail are replaced
    const pt = all.get(id(2))!;
    const ok = await manage('PATCH', `/walls/${WALL}/posts/${pt.id}`, { state: 'approved', reason: 'our Lisbon fans' });
    expect(ok.status, ok.text).toBe(200);
    expect((ok.json() as { responseData: Post }).responseData).toMatchObject({
      state: 'approved',
      decision: { by: 'moderator-mo', reason: 'our Lisbon fans', detail: null },
    });
    // the audit log keeps what the rule had said beside the moderator's decision
    const audit = await manage('GET', `/audit?postId=${pt.id}`);
    expect(audit.status, audit.text).toBe(200);
    expect((audit.json() as { responseData: { data: unknown[] } }).responseData.data[0]).toMatchObject({
      action: 'post.update',
      summary: {
        after: { state: 'approved', reason: 'our Lisbon fans' },
        overrode: { by: 'rule:lang', reason: "held: language 'pt' — eld 2.1.0" },
      },
    });
    // the change feed told each hold as `held` (webhooks: post.held), the posts no rule held as `created`
    const feed = await manage('GET', `/walls/${WALL}/changes?limit=100`);
    expect(feed.status, feed.text).toBe(200);
    const changes = (feed.json() as { responseData: { changes: { kind: string; postId: number }[] } }).responseData
      .changes;
    const heldIds = [...all.values()].filter((p) => p.decision?.by.startsWith('rule:')).map((p) => p.id);
    expect(
      changes
        .filter((c) => c.kind === 'held')
        .map((c) => c.postId)
        .sort(),
    ).toEqual(heldIds.sort());
    expect(changes.filter((c) => c.kind === 'created')).toHaveLength(16 - heldIds.length);

    // changed rules: Portuguese allowed too, other languages and repeats rejected; re-applied to the stored posts
    const changed = {
      rules: [
        { id: 'lang', kind: 'language', action: 'reject', languages: ['en', 'pt'], mode: 'allow' },
        { id: 'dup', kind: 'duplicate', action: 'reject', within: 60 },
        { id: 'flood', kind: 'burst', action: 'hold', by: 'author', count: 8, minutes: 1 },
        { id: 'nsfw', kind: 'image', action: 'blur' },
      ],
    };
    expect((await manage('PUT', `/walls/${WALL}/rules`, changed)).status).toBe(200);
    const apply = await manage('POST', `/walls/${WALL}/rules/apply`, { includeApproved: true });
    expect(apply.status, apply.text).toBe(200);
    const after = await posts();
    // the German post and the repeats are rejected now, each saying so; the approved Portuguese post stays approved
    expect(after.get(id(3))).toMatchObject({
      state: 'rejected',
      decision: { reason: "rejected: language 'de' — eld 2.1.0" },
    });
    for (const n of [5, 6]) expect(after.get(id(n))).toMatchObject({ state: 'rejected', decision: { by: 'rule:dup' } });
    expect(after.get(id(2))).toMatchObject({ state: 'approved', decision: { by: 'moderator-mo' } });
    expect(after.get(id(4))!.state).toBe('pending');
    // the burst rule now matches from the 8th post on (they were held already: their state does not change)
    expect((apply.json() as { responseData: { counts: unknown } }).responseData.counts).toEqual(
      expect.arrayContaining([
        { ruleId: 'lang', matched: 1, changed: 1 },
        { ruleId: 'dup', matched: 2, changed: 2 },
        { ruleId: 'flood', matched: 3, changed: 0 },
      ]),
    );
  });
});
