// The text signals of moderation through real ingestion (fixture feed →
// parse worker → store), on SQLite and PostgreSQL: each post's language is
// detected in the parse worker and stored; a wall's `language` rule (given
// in the data file) holds exactly the posts in other languages, each
// explained with its language and the model; an approval clears the
// decision; a changed rule, dry-run then applied, gives the new result; a
// post stored before languages were (lang null) is detected on the fly; the
// embed API carries each post's `lang`; a `sentiment` rule holds a hostile
// post with its score, threshold and model.
import type { DecisionDetail } from '../../src/domain/decision.js';
import { afterEach, describe, expect, it } from 'vitest';
import { call } from '../helpers/http.js';
import { makeToken } from '../http/manage/helpers.js';
import { rssXml, startFeeds, type FeedFixture, type RssItem } from './fixtures/feeds.js';
import { NOW, WALL, startHarness, storedPosts, type Harness } from './harness.js';

let fx: FeedFixture;
let h: Harness;
afterEach(async () => {
  await h?.close();
  await fx?.close();
});

const FEED = 811;
const item = (n: number, title: string, description: string): RssItem => ({
  guid: `p${n}`,
  title,
  link: `https://blog.example/${n}/`,
  pubDate: new Date(NOW - (60 - n) * 60_000).toUTCString(),
  description,
});

const ITEMS = [
  item(1, 'Opening night', '<p>The band played until midnight and the whole crowd sang along with every song.</p>'),
  item(2, 'Noite de abertura', '<p>A banda tocou até a meia-noite e toda a multidão cantou junto com cada música.</p>'),
  item(3, 'Eröffnungsabend', '<p>Die Band spielte bis Mitternacht und die ganze Menge sang bei jedem Lied mit.</p>'),
  item(
    4,
    'Second day',
    '<p>Rain in the morning, but the sun came out for the afternoon concerts by the lake. @crew #festival</p>',
  ),
  item(5, 'Segundo dia', '<p>Choveu de manhã, mas o sol apareceu para os concertos da tarde junto ao lago.</p>'),
];

interface Decision {
  by: string;
  reason: string | null;
  detail: DecisionDetail | null;
}
interface Post {
  id: number;
  externalId: string;
  state: string;
  decision: Decision | null;
}

async function wall(rules: unknown[], items: RssItem[] = ITEMS) {
  fx = await startFeeds();
  fx.documents.set('/feed.xml', { body: rssXml(items), type: 'application/rss+xml; charset=UTF-8' });
  h = await startHarness([{ id: FEED, name: 'Festival', connector: { kind: 'rss', url: `${fx.origin}/feed.xml` } }], {
    rules,
  });
  const { token } = await makeToken(h.server, 'moderator-ana');
  const manage = async (method: string, path: string, body?: unknown) => {
    const res = await call(h.server.baseUrl, `/api/manage/v1${path}`, {
      method,
      body,
      headers: { authorization: `Bearer ${token}` },
    });
    expect([200, 201], res.text).toContain(res.status);
    return (res.json() as { responseData: unknown }).responseData;
  };
  const posts = async () =>
    new Map(
      ((await manage('GET', `/walls/${WALL}/posts?limit=100`)) as { data: Post[] }).data.map((p) => [p.externalId, p]),
    );
  return { manage, posts };
}

const languageHeld = (lang: string) => ({
  state: 'pending',
  decision: {
    by: 'rule:lang',
    reason: `held: language '${lang}' — eld 2.1.0`,
    detail: { rule: 'lang', kind: 'language', label: lang, score: null, threshold: null, model: 'eld 2.1.0' },
  },
});

describe('language and sentiment through ingestion', () => {
  it('a language rule holds exactly the posts not in English; approving clears; a changed rule gives the new result', async () => {
    const { manage, posts } = await wall([
      { id: 'lang', kind: 'language', action: 'hold', languages: ['en'], mode: 'allow' },
    ]);
    const first = (await h.poll())[0];
    expect(first, JSON.stringify(first)).toMatchObject({ status: 'ok', inserted: 5 });

    const stored = await storedPosts(h, FEED);
    expect(stored.map((p) => [p.external_id, p.lang])).toEqual([
      ['p1', 'en'],
      ['p2', 'pt'],
      ['p3', 'de'],
      ['p4', 'en'],
      ['p5', 'pt'],
    ]);
    let all = await posts();
    expect(all.get('p1')).toMatchObject({ state: 'approved', decision: null });
    expect(all.get('p4')).toMatchObject({ state: 'approved', decision: null });
    expect(all.get('p2')).toMatchObject(languageHeld('pt'));
    expect(all.get('p3')).toMatchObject(languageHeld('de'));
    expect(all.get('p5')).toMatchObject(languageHeld('pt'));

    // an approval is a person's decision: the rule's detail goes with the rule's reason
    const approved = (await manage('PATCH', `/walls/${WALL}/posts/${all.get('p2')!.id}`, {
      state: 'approved',
    })) as Post;
    expect(approved).toMatchObject({
      state: 'approved',
      decision: { by: 'moderator-ana', reason: null, detail: null },
    });

    // the embed API carries each approved post's language
    const key = (await manage('POST', `/walls/${WALL}/publishable-keys`, {})) as { key: string };
    const embed = await call(h.server.baseUrl, `/api/embed/v1/walls/${WALL}/posts`, { query: { key: key.key } });
    expect(embed.status, embed.text).toBe(200);
    const langs = (embed.json() as { posts: { id: string; lang: string | null }[] }).posts.map(
      (p) => [p.id, p.lang] as const,
    );
    expect(new Map(langs)).toEqual(
      new Map([
        [String(all.get('p1')!.id), 'en'],
        [String(all.get('p2')!.id), 'pt'],
        [String(all.get('p4')!.id), 'en'],
      ]),
    );

    // a post stored before languages were (null): detected when the rules run
    await h.server.store.db.updateTable('posts').set({ lang: null }).where('feed_id', '=', FEED).execute();
    const again = (await manage('POST', `/walls/${WALL}/rules/apply`, { includeApproved: true })) as {
      counts: { ruleId: string; matched: number; changed: number }[];
    };
    // the approved Portuguese post is held again; the others were held already
    expect(again.counts).toEqual([{ ruleId: 'lang', matched: 3, changed: 1 }]);
    all = await posts();
    expect(all.get('p2')).toMatchObject(languageHeld('pt'));

    // English and Portuguese allowed: a dry run counts only the German post, then the rule is saved and applied
    const rules = [{ id: 'lang', kind: 'language', action: 'hold', languages: ['en', 'pt'], mode: 'allow' }];
    const dry = await call(h.server.baseUrl, `/api/manage/v1/walls/${WALL}/rules?dryRun=true`, {
      method: 'PUT',
      body: { rules },
      headers: { authorization: `Bearer ${(await makeToken(h.server, 'dry')).token}` },
    });
    expect(dry.status, dry.text).toBe(200);
    expect((dry.json() as { responseData: unknown }).responseData).toMatchObject({
      rules: [{ ...rules[0], unknown: 'pass' }],
      dryRun: true,
      counts: [{ ruleId: 'lang', matched: 1, changed: 0 }],
    });
    await manage('PUT', `/walls/${WALL}/rules`, { rules });
    // rules decide the posts they match; the Portuguese ones held before are now the moderators' to release
    const bulk = (await manage('POST', `/walls/${WALL}/posts/bulk`, {
      postIds: [all.get('p2')!.id, all.get('p5')!.id],
      action: 'approve',
    })) as unknown;
    expect(bulk).toBeDefined();
    const applied = (await manage('POST', `/walls/${WALL}/rules/apply`, { includeApproved: true })) as {
      counts: unknown[];
    };
    expect(applied.counts).toEqual([{ ruleId: 'lang', matched: 1, changed: 0 }]);
    all = await posts();
    expect([...all.values()].map((p) => [p.externalId, p.state]).sort()).toEqual([
      ['p1', 'approved'],
      ['p2', 'approved'],
      ['p3', 'pending'],
      ['p4', 'approved'],
      ['p5', 'approved'],
    ]);

    // and new posts arrive under it: Portuguese approved, German held
    fx.documents.set('/feed.xml', {
      body: rssXml([
        ...ITEMS,
        item(6, 'Último dia', '<p>O último dia do festival trouxe as melhores bandas e muita gente feliz.</p>'),
        item(
          7,
          'Letzter Tag',
          '<p>Der letzte Tag des Festivals brachte die besten Bands und viele glückliche Leute.</p>',
        ),
      ]),
      type: 'application/rss+xml; charset=UTF-8',
    });
    h.clock.now = NOW + 3600_000;
    expect((await h.poll())[0]).toMatchObject({ status: 'ok', inserted: 2 });
    all = await posts();
    expect(all.get('p6')).toMatchObject({ state: 'approved', decision: null });
    expect(all.get('p7')).toMatchObject(languageHeld('de'));
  });

  it('a sentiment rule holds the hostile post with its score, the threshold and the model', async () => {
    const { posts } = await wall(
      [{ id: 'mood', kind: 'sentiment', action: 'hold', below: -0.5 }],
      [
        ITEMS[0]!,
        item(8, 'Worst gig ever', '<p>I hate this band, the singer is an idiot and the sound was awful.</p>'),
        item(9, 'Pior show', '<p>Odeio esta banda, o cantor é um idiota e o som foi horrível.</p>'),
      ],
    );
    await h.poll();
    const all = await posts();
    expect(all.get('p1')).toMatchObject({ state: 'approved', decision: null });
    expect(all.get('p8')).toMatchObject({
      state: 'pending',
      decision: {
        by: 'rule:mood',
        reason: expect.stringMatching(
          /^held: sentiment -0\.\d\d 'negative' < -0\.50 — sentiment \(AFINN-165\) 5\.0\.2$/,
        ),
        detail: { kind: 'sentiment', label: 'negative', threshold: -0.5, model: 'sentiment (AFINN-165) 5.0.2' },
      },
    });
    expect(all.get('p8')!.decision!.detail!.score).toBeLessThan(-0.5);
    // English only: the Portuguese post is not read by the lexicon
    expect(all.get('p9')).toMatchObject({ state: 'approved', decision: null });
  });
});
