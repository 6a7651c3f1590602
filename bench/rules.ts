// Part of `npm run bench`: what moderation rules cost ingestion. The write
// path of a poll (src/ingest/runtime.ts: each new post judged, then written
// by upsertPosts in batches of 100) on a SQLite store, for the same posts
// on a wall without rules and on a wall with 50 rules (keywords, authors,
// profanity, media, length; none matching, so every post runs all 50),
// alternated over several rounds in one run; the ratio of the medians is
// the cost. Options: --quick (fewer posts and rounds).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { compileRules, ruleText, type Rule } from '../src/domain/rules.js';
import { arrivalFor } from '../src/ingest/runtime.js';
import { upsertPosts, type IngestedPost } from '../src/store/ingest.js';
import { openStore } from '../src/store/store.js';
import { ROOT } from './process.js';

const quick = process.argv.includes('--quick');
const POSTS = quick ? 5_000 : 20_000;
const ROUNDS = quick ? 3 : 5;
const BATCH = 100;

function rules50(): Rule[] {
  const out: Rule[] = [];
  for (let i = 0; i < 20; i++)
    out.push({ id: `k${i}`, kind: 'keyword', action: 'reject', words: [`spamword${i}`, `buy now ${i}`], match: 'any' });
  for (let i = 0; i < 15; i++)
    out.push({
      id: `a${i}`,
      kind: 'author',
      action: 'reject',
      network: i % 2 ? null : 'Mastodon',
      usernames: [`troll${i}@m.example`, `bot${i}`],
    });
  for (let i = 0; i < 5; i++) out.push({ id: `p${i}`, kind: 'profanity', action: 'hold', languages: ['en'] });
  for (let i = 0; i < 5; i++) out.push({ id: `m${i}`, kind: 'media', action: 'hold', require: 'any' });
  for (let i = 0; i < 5; i++) out.push({ id: `l${i}`, kind: 'length', action: 'hold', min: 5 });
  return out;
}

function post(feed: number, i: number): IngestedPost {
  const now = Date.UTC(2026, 0, 1) + i * 1000;
  return {
    external_id: `f${feed}-${i}`,
    network_name: 'Mastodon',
    post_type: 2,
    content: `<p>Day <strong>${i}</strong> at the harbour: boats, gulls and a long view over the water. <a href="https://x.example/${i}">more</a> #harbourfest</p>`,
    picture: `https://cdn.example/${i}.jpg`,
    file: `https://cdn.example/${i}.jpg`,
    file_original: '',
    file_thumb: '',
    media_file: '',
    link_url: `https://m.example/@ana/${i}`,
    author_name: `Ana Lima ${i % 50}`,
    username: `ana${i % 50}@m.example`,
    user_picture: '',
    score: null,
    rating: null,
    tags: 'harbourfest',
    location: '',
    media: 'image',
    children: '[]',
    alt: '',
    repost: 0,
    reply: 0,
    created_at: now,
    updated_at: now,
    hidden: 0,
  };
}

/** What the parse worker adds to a row for a wall with a profanity rule (timed apart: it runs off the serving thread). */
function profaneFlag(p: IngestedPost): IngestedPost {
  return {
    ...p,
    profane:
      compileRules([{ id: 'p', kind: 'profanity', action: 'hold', languages: ['en'] }]).match(subject(p)) !== null,
  };
}

const subject = (p: IngestedPost) => ({
  content: ruleText(p.content),
  authorName: p.author_name,
  username: p.username,
  network: p.network_name,
  media: p.media,
  ...(p.profane !== undefined ? { profane: p.profane } : {}),
});

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'wallery-rules-bench-'));
  const store = openStore({ kind: 'sqlite', path: join(dir, 'bench.db') });
  try {
    await store.migrate();
    const db = store.db;
    const { id: account } = await db
      .insertInto('accounts')
      .values({ name: 'Bench', plan: 'enterprise', daily_call_limit: 1000, created_at: 0 })
      .returning('id')
      .executeTakeFirstOrThrow();
    const wall = async (rules: Rule[]) =>
      (
        await db
          .insertInto('walls')
          .values({
            account_id: account,
            name: 'w',
            url: 'w',
            profanity: 0,
            moderation: 'auto',
            rules: JSON.stringify(rules),
            created_at: 0,
            deleted_at: null,
          })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id;
    const plain = await wall([]);
    const ruled = await wall(rules50());
    let feeds = 0;
    const feed = async (wallId: number) =>
      (
        await db
          .insertInto('feeds')
          .values({
            wall_id: wallId,
            name: 'f',
            source: 'Mastodon',
            source_type: 'hashtag',
            created_at: 0,
            updated_at: 0,
          })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id;

    /** posts per second through the write path, judged as ingestion judges them */
    const run = async (wallId: number, withRules: boolean) => {
      const feedId = await feed(wallId);
      const made = Array.from({ length: POSTS }, (_, i) => post(++feeds, i));
      const rows = withRules ? made.map(profaneFlag) : made;
      const start = performance.now();
      // what a poll does (src/ingest/runtime.ts): the wall's rules read and compiled once, then each post judged
      const stored = (await db.selectFrom('walls').select('rules').where('id', '=', wallId).executeTakeFirstOrThrow())
        .rules;
      const arrive = arrivalFor('auto', stored);
      for (let i = 0; i < rows.length; i += BATCH)
        await upsertPosts(db, wallId, feedId, rows.slice(i, i + BATCH), arrive);
      return POSTS / ((performance.now() - start) / 1000);
    };

    await run(plain, false); // warm-up
    await run(ruled, true);
    const without: number[] = [];
    const withRules: number[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      without.push(await run(plain, false));
      withRules.push(await run(ruled, true));
    }
    // the parse workers' extra work for a profanity rule, per post
    const sample = Array.from({ length: 2000 }, (_, i) => post(0, i));
    const t0 = performance.now();
    for (const p of sample) profaneFlag(p);
    const workerUs = ((performance.now() - t0) / sample.length) * 1000;
    const a = median(without);
    const b = median(withRules);
    const cost = (1 - b / a) * 100;
    const lines = [
      `# Moderation rules: cost at ingestion (${new Date().toISOString().slice(0, 10)})`,
      '',
      `${POSTS} posts per round, batches of ${BATCH}, SQLite, ${ROUNDS} rounds alternated; medians.`,
      '',
      '| wall | posts/s |',
      '| --- | ---: |',
      `| no rules | ${Math.round(a)} |`,
      `| 50 rules (none matching: all 50 run per post) | ${Math.round(b)} |`,
      '',
      `Cost of the rules on the serving thread: ${cost.toFixed(1)} % of ingestion throughput (budget: < 10 %).`,
      `The profanity check runs in the parse workers (beside parsing and sanitizing): ${workerUs.toFixed(0)} µs per post, once per post whatever the number of profanity rules.`,
      '',
    ];
    writeFileSync(join(ROOT, 'bench', 'rules-results.md'), lines.join('\n'));
    process.stdout.write(lines.join('\n'));
    if (cost >= 10) process.stdout.write('\nOVER BUDGET: the rules cost 10 % or more of ingestion throughput\n');
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
