// Part of `npm run bench`: what the spam rules that read a wall's history
// (`duplicate`, `burst`) cost the write path. A wall holds 100,000 posts
// (a week of ~10 posts a minute from 2,000 authors); one poll then writes 200
// new posts (in batches of 50, as src/ingest/runtime.ts does), on:
//  - the baseline: the same wall without history rules (the write path as before),
//  - the wall with a `duplicate` rule (60 minutes), a `burst` by author
//    (5 in 1 minute) and a `burst` by link (5 in 10 minutes),
//  - the same with a one-day duplicate window (~14,000 posts to compare).
// The walls take turns (A B C C B A …) on the same store; each poll's posts
// are deleted after it (not timed), so every poll meets 100,000 posts. The
// ratio of the medians (wall-clock: the store's work included) is the cost.
// SQLite, and PostgreSQL when it answers. Options: --quick (fewer rounds).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Kysely } from 'kysely';
import type { StoreUrl } from '../src/config.js';
import type { Rule } from '../src/domain/rules.js';
import { textHash } from '../src/domain/spam.js';
import { arrivalOf, historyOf } from '../src/ingest/arrival.js';
import { upstreamHash } from '../src/ingest/upstream-hash.js';
import { upsertPosts, type IngestedPost } from '../src/store/ingest.js';
import { postDefaults } from '../src/store/post-columns.js';
import type { Database } from '../src/store/schema.js';
import { openStore } from '../src/store/store.js';
import { benchServices, unreachable } from './postgres.js';
import { ROOT } from './process.js';

const quick = process.argv.includes('--quick');
const ROUNDS = quick ? 4 : 10;
const STORED = 100_000;
const POLL = 200;
const BATCH = 50;
const AUTHORS = 2000;
const T0 = Date.UTC(2026, 0, 8);
const SPAN = 7 * 86_400_000;

const WORDS =
  'harbour boats gulls water trail ridge coffee market lemons bread choir chess kite dunes storm river garden seeds lamp repair bakery night stalls wind sunrise quay music festival family team'.split(
    ' ',
  );

/** A post's text, different for every n (its words picked by n's digits). */
function textOf(n: number): string {
  const words: string[] = [];
  for (let k = n, i = 0; i < 12; i++, k = Math.floor(k / 7) + i * 31) words.push(WORDS[(k + i * 13) % WORDS.length]!);
  return `<p>${words.join(' ')} number ${n} <a href="https://site${n % 500}.example/p/${n % 37}">more</a></p>`;
}

function row(n: number, createdAt: number): IngestedPost {
  const d = postDefaults();
  const content = textOf(n);
  return {
    network_name: 'Mastodon',
    post_type: 1,
    content,
    picture: d.picture,
    file: d.file,
    file_original: d.file_original,
    file_thumb: d.file_thumb,
    media_file: d.media_file,
    link_url: `https://m.example/@u/${n}`,
    author_name: `Author ${n % AUTHORS}`,
    username: `u${n % AUTHORS}@m.example`,
    user_picture: '',
    score: null,
    rating: null,
    tags: '',
    location: '',
    media: 'text',
    children: '[]',
    alt: '',
    repost: 0,
    reply: 0,
    sensitive: 0,
    author_bot: 0,
    author_created_at: null,
    created_at: createdAt,
    updated_at: createdAt,
    external_id: `x${n}`,
    hidden: 0,
    text_hash: textHash(content),
  };
}

async function seed(db: Kysely<Database>, rules: Record<string, Rule[]>) {
  const { id: account } = await db
    .insertInto('accounts')
    .values({ name: 'Bench', plan: 'enterprise', daily_call_limit: 1000, created_at: 0 })
    .returning('id')
    .executeTakeFirstOrThrow();
  const walls: Record<string, { wallId: number; feedId: number; rules: string }> = {};
  // one wall holds the posts; each variant is that wall with its rules (set before its polls)
  const { id: wallId } = await db
    .insertInto('walls')
    .values({
      account_id: account,
      name: 'w',
      url: 'w',
      profanity: 0,
      moderation: 'auto',
      allow_framing: 0,
      rules: '[]',
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
  for (const [name, list] of Object.entries(rules)) walls[name] = { wallId, feedId, rules: JSON.stringify(list) };
  const decisions = { fingerprint: upstreamHash, arrival: arrivalOf('auto') };
  for (let i = 0; i < STORED; i += 500) {
    const rows = Array.from({ length: Math.min(500, STORED - i) }, (_, k) => {
      const n = i + k;
      return row(n, T0 - SPAN + Math.floor((n * SPAN) / STORED));
    });
    await upsertPosts(db, wallId, feedId, rows, decisions, T0);
  }
  const { max } = await db
    .selectFrom('posts')
    .select((eb) => eb.fn.max('id').as('max'))
    .executeTakeFirstOrThrow();
  return { walls, lastSeeded: Number(max) };
}

/** One poll's 200 posts: a few seconds apart after the last stored one; every 10th repeats a post of the last hour. */
function pollRows(round: number): IngestedPost[] {
  return Array.from({ length: POLL }, (_, k) => {
    const n = STORED + round * POLL + k;
    const r = row(n, T0 + k * 3000);
    if (k % 10 === 0) {
      const earlier = STORED - 1 - k;
      const content = textOf(earlier);
      return { ...r, content, text_hash: textHash(content) };
    }
    return r;
  }).reverse(); // newest first, as networks page
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function measure(url: StoreUrl, label: string, rules: Record<string, Rule[]>) {
  const store = openStore(url);
  try {
    await store.migrate();
    const db = store.db;
    const { walls, lastSeeded } = await seed(db, rules);
    const names = Object.keys(rules);
    const times: Record<string, number[]> = Object.fromEntries(names.map((n) => [n, []]));
    const held: Record<string, number> = {};
    for (let r = -1; r < ROUNDS; r++) {
      const order = r % 2 === 0 ? names : [...names].reverse();
      for (const name of order) {
        const wall = walls[name]!;
        const rows = pollRows(Math.max(r, 0));
        const decisions = { fingerprint: upstreamHash, arrival: arrivalOf('auto'), history: historyOf(wall.rules) };
        const t = process.hrtime.bigint();
        for (let i = 0; i < rows.length; i += BATCH)
          await upsertPosts(db, wall.wallId, wall.feedId, rows.slice(i, i + BATCH), decisions, T0);
        const ms = Number(process.hrtime.bigint() - t) / 1e6;
        if (r >= 0) times[name]!.push(ms); // the first round warms up
        if (r === 0) {
          const { n } = await db
            .selectFrom('posts')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .where('id', '>', lastSeeded)
            .where('state', '=', 'pending')
            .executeTakeFirstOrThrow();
          held[name] = Number(n);
        }
        await db.deleteFrom('posts').where('id', '>', lastSeeded).execute();
      }
    }
    const base = median(times.none!);
    return names.map((name) => ({
      store: label,
      name,
      ms: median(times[name]!),
      ratio: median(times[name]!) / base,
      held: held[name] ?? 0,
    }));
  } finally {
    await store.close();
  }
}

async function main() {
  const spam: Rule[] = [
    { id: 'd', kind: 'duplicate', action: 'hold', within: 60, distance: 3 },
    { id: 'a', kind: 'burst', action: 'hold', by: 'author', count: 5, minutes: 1 },
    { id: 'l', kind: 'burst', action: 'hold', by: 'link', count: 5, minutes: 10 },
  ];
  const rules = {
    none: [] as Rule[],
    spam,
    dayWindow: spam.map((r) => (r.kind === 'duplicate' ? { ...r, within: 1440 } : r)),
  };
  const dir = mkdtempSync(join(tmpdir(), 'wallery-spam-bench-'));
  const results: Awaited<ReturnType<typeof measure>> = [];
  try {
    results.push(...(await measure({ kind: 'sqlite', path: join(dir, 'spam.db') }, 'SQLite', rules)));
    const missing = await unreachable();
    if (missing === null) {
      const services = await benchServices();
      try {
        results.push(...(await measure({ kind: 'postgres', url: services.env.DATABASE_URL }, 'PostgreSQL', rules)));
      } finally {
        await services.drop();
      }
    } else process.stdout.write(`PostgreSQL left out: ${missing}\n`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const label: Record<string, string> = {
    none: 'baseline: no history rules',
    spam: 'duplicate (60 min) + burst by author (5 in 1 min) + burst by link (5 in 10 min)',
    dayWindow: 'the same, duplicate over 1 day',
  };
  const lines = [
    `# Spam rules: cost of a poll on a large wall (${new Date().toISOString().slice(0, 10)})`,
    '',
    `A wall of ${STORED.toLocaleString('en')} posts (a week, ~10 a minute, ${AUTHORS} authors); one poll writes ${POLL} new posts in batches of ${BATCH}, every 10th repeating a post of the last hour.`,
    `The walls take turns, ${ROUNDS} polls each after a warm-up; medians of wall-clock time (the store's work included). Cost = ratio to the baseline measured in the same run.`,
    '',
    '| store | wall | ms per poll of 200 | ratio to baseline | held in a poll |',
    '| --- | --- | ---: | ---: | ---: |',
    ...results.map((r) => `| ${r.store} | ${label[r.name]} | ${r.ms.toFixed(1)} | ${r.ratio.toFixed(2)} | ${r.held} |`),
    '',
  ];
  writeFileSync(join(ROOT, 'bench', 'spam-results.md'), lines.join('\n'));
  process.stdout.write(lines.join('\n'));
}

await main();
