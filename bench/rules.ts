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
const ROUNDS = quick ? 4 : 8;
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

/**
 * Posts per second through the write path of one poll, judged as ingestion
 * judges them, on a store of its own (fresh, so no run inherits another's
 * table size or write-ahead log). The rows are cloned as the parse workers'
 * rows arrive (structured clone), with `profane` set where the wall has a
 * profanity rule, as the workers set it.
 */
async function run(dir: string, n: number, rules: Rule[]): Promise<{ rate: number; judging: number }> {
  const store = openStore({ kind: 'sqlite', path: join(dir, `run-${n}.db`) });
  try {
    await store.migrate();
    const db = store.db;
    const { id: account } = await db
      .insertInto('accounts')
      .values({ name: 'Bench', plan: 'enterprise', daily_call_limit: 1000, created_at: 0 })
      .returning('id')
      .executeTakeFirstOrThrow();
    const { id: wallId } = await db
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
      .executeTakeFirstOrThrow();
    const { id: feedId } = await db
      .insertInto('feeds')
      .values({ wall_id: wallId, name: 'f', source: 'Mastodon', source_type: 'hashtag', created_at: 0, updated_at: 0 })
      .returning('id')
      .executeTakeFirstOrThrow();
    const made = Array.from({ length: POSTS }, (_, i) => post(n, i));
    const rows = structuredClone(rules.some((r) => r.kind === 'profanity') ? made.map(profaneFlag) : made);
    const start = performance.now();
    // what a poll does (src/ingest/runtime.ts): the wall's rules read and compiled once, then each post judged
    const stored = (await db.selectFrom('walls').select('rules').where('id', '=', wallId).executeTakeFirstOrThrow())
      .rules;
    const judge = arrivalFor('auto', stored);
    // the time spent judging, measured inside the same batches (a second, load-proof view of the cost)
    let judging = 0;
    const arrive = (p: IngestedPost) => {
      const t = performance.now();
      const a = judge(p);
      judging += performance.now() - t;
      return a;
    };
    for (let i = 0; i < rows.length; i += BATCH)
      await upsertPosts(db, wallId, feedId, rows.slice(i, i + BATCH), arrive);
    const ms = performance.now() - start;
    return { rate: POSTS / (ms / 1000), judging: judging / (ms - judging) };
  } finally {
    await store.close();
  }
}

async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'wallery-rules-bench-'));
  try {
    let n = 0;
    await run(dir, n++, []); // warm-up
    await run(dir, n++, rules50());
    const without: number[] = [];
    const withRules: number[] = [];
    const judging: number[] = [];
    // A B B A A B …: neither wall always runs first or after the other
    for (let r = 0; r < ROUNDS; r++) {
      const order = r % 2 === 0 ? [false, true] : [true, false];
      for (const ruled of order) {
        if (ruled) {
          const r = await run(dir, n++, rules50());
          withRules.push(r.rate);
          judging.push(r.judging);
        } else without.push((await run(dir, n++, [])).rate);
      }
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
      `${POSTS} posts per run, batches of ${BATCH}, a fresh SQLite store per run, ${ROUNDS} runs of each wall alternated (A B B A …); medians.`,
      '',
      '| wall | posts/s |',
      '| --- | ---: |',
      `| no rules | ${Math.round(a)} |`,
      `| 50 rules (none matching: all 50 run per post) | ${Math.round(b)} |`,
      '',
      `Cost of the rules on the serving thread: ${cost.toFixed(1)} % of ingestion throughput (budget: < 10 %).`,
      `Judging itself, timed inside the same batches: ${(median(judging) * 100).toFixed(1)} % of the rest of the write path (the figure above also counts what judging costs around it, but moves with the machine's load).`,
      `The profanity check runs in the parse workers (beside parsing and sanitizing): ${workerUs.toFixed(0)} µs per post, once per post whatever the number of profanity rules.`,
      '',
    ];
    writeFileSync(join(ROOT, 'bench', 'rules-results.md'), lines.join('\n'));
    process.stdout.write(lines.join('\n'));
    if (cost >= 10) process.stdout.write('\nOVER BUDGET: the rules cost 10 % or more of ingestion throughput\n');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
