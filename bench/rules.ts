// Part of `npm run bench`: what moderation rules cost ingestion. One poll's
// work, for the same page of 500 Mastodon statuses, on a wall without rules
// and on a wall with 50 rules (20 keyword, 15 author, 5 profanity, 5 media,
// 5 length; none matching, so all 50 run for every post):
//  - the parse worker's part (src/ingest/parse-worker.ts, run here in-process:
//    JSON, mapping, sanitizing, normalizing, and judging each post by the
//    wall's rules), and
//  - the serving thread's part (src/ingest/runtime.ts: each new post placed,
//    then written by upsertPosts in batches of 100, SQLite),
// each run on a fresh store, the two walls alternated A B B A …; the ratio of
// the medians is the cost. Options: --quick (fewer runs).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Rule } from '../src/domain/rules.js';
import { arrivalOf } from '../src/ingest/arrival.js';
import { parseWith, type ParseTask } from '../src/ingest/parse-worker.js';
import { loadTextDetectors } from '../src/domain/text-detectors.js';
import { upstreamHash } from '../src/ingest/upstream-hash.js';
import { upsertPosts } from '../src/store/ingest.js';
import { openStore } from '../src/store/store.js';
import { ROOT } from './process.js';

const quick = process.argv.includes('--quick');
const PAGES = quick ? 10 : 20;
const PER_PAGE = 500;
const ROUNDS = quick ? 4 : 8;
const BATCH = 100;
const detectors = await loadTextDetectors();

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

/** A hashtag timeline page as a Mastodon instance answers it. */
function statusesPage(page: number): Uint8Array {
  const statuses = Array.from({ length: PER_PAGE }, (_, k) => {
    const i = page * PER_PAGE + k;
    const at = new Date(Date.UTC(2026, 0, 1) + i * 1000).toISOString();
    return {
      id: String(100000 + i),
      created_at: at,
      edited_at: null,
      in_reply_to_id: null,
      sensitive: false,
      spoiler_text: '',
      visibility: 'public',
      url: `https://m.example/@ana${i % 50}/${100000 + i}`,
      content: `<p>Day <strong>${i}</strong> at the harbour: boats, gulls and a long view over the water. <a href="https://x.example/${i}" rel="nofollow">more</a> <a href="https://m.example/tags/harbourfest" class="mention hashtag">#<span>harbourfest</span></a></p>`,
      account: {
        id: String(i % 50),
        acct: `ana${i % 50}`,
        display_name: `Ana Lima ${i % 50}`,
        url: `https://m.example/@ana${i % 50}`,
        avatar: `https://m.example/avatars/${i % 50}.png`,
      },
      media_attachments: [
        {
          type: 'image',
          url: `https://cdn.example/${i}.jpg`,
          preview_url: `https://cdn.example/${i}-small.jpg`,
          description: 'Boats in the harbour',
        },
      ],
      tags: [{ name: 'harbourfest' }],
      emojis: [],
      reblog: null,
      poll: null,
      card: null,
    };
  });
  return new TextEncoder().encode(JSON.stringify(statuses));
}

/**
 * CPU time of this process, in ms. The work is single-threaded and CPU-bound,
 * so this is its cost; unlike the clock it does not move with the machine's
 * other load (it leaves out the wait for SQLite's fsync, which makes the
 * rules' share, if anything, larger).
 */
function cpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

interface Times {
  /** the whole poll's posts per second on one core (worker part + serving part) */
  rate: number;
  /** ms per page in the worker's part, and in the serving thread's */
  worker: number;
  serving: number;
}

async function run(dir: string, n: number, pages: Uint8Array[], rules: Rule[]): Promise<Times> {
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
        allow_framing: 0,
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
    const stored = (await db.selectFrom('walls').select('rules').where('id', '=', wallId).executeTakeFirstOrThrow())
      .rules;
    let worker = 0;
    let serving = 0;
    for (const bytes of pages) {
      const task: ParseTask = {
        settings: { kind: 'mastodon', instance: 'https://m.example', hashtag: 'harbourfest' },
        document: 'statuses',
        response: {
          url: 'https://m.example/api/v1/timelines/tag/harbourfest',
          status: 200,
          headers: { 'content-type': 'application/json' },
          bytes: bytes.slice(),
        },
        maxItems: PER_PAGE,
        wallProfanity: false,
        rules: stored,
        now: Date.UTC(2026, 1, 1),
      };
      let t = cpuMs();
      // the worker's rows reach the serving thread as a structured clone
      const { rows } = structuredClone(parseWith(task, detectors));
      worker += cpuMs() - t;
      t = cpuMs();
      const decisions = { fingerprint: upstreamHash, arrival: arrivalOf('auto') };
      for (let i = 0; i < rows.length; i += BATCH)
        await upsertPosts(db, wallId, feedId, rows.slice(i, i + BATCH), decisions);
      serving += cpuMs() - t;
    }
    const posts = pages.length * PER_PAGE;
    return {
      rate: posts / ((worker + serving) / 1000),
      worker: worker / pages.length,
      serving: serving / pages.length,
    };
  } finally {
    await store.close();
  }
}

async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'wallery-rules-bench-'));
  try {
    const pages = Array.from({ length: PAGES }, (_, p) => statusesPage(p));
    const walls = {
      none: [] as Rule[],
      all: rules50(),
      // the same list but its 5 profanity rules: what the engine costs apart from the profanity filter
      noProfanity: rules50().filter((r) => r.kind !== 'profanity'),
    };
    type Wall = keyof typeof walls;
    const times: Record<Wall, Times[]> = { none: [], all: [], noProfanity: [] };
    let n = 0;
    for (const wall of Object.keys(walls) as Wall[]) await run(dir, n++, pages, walls[wall]); // warm-up
    // each wall in turn first and last: none all noProfanity, noProfanity all none, …
    for (let r = 0; r < ROUNDS; r++) {
      const order: Wall[] = r % 2 === 0 ? ['none', 'all', 'noProfanity'] : ['noProfanity', 'all', 'none'];
      for (const wall of order) times[wall].push(await run(dir, n++, pages, walls[wall]));
    }
    const m = (wall: Wall, k: keyof Times) => median(times[wall].map((x) => x[k]));
    const costOf = (wall: Wall) => (1 - m(wall, 'rate') / m('none', 'rate')) * 100;
    const row = (label: string, wall: Wall) =>
      `| ${label} | ${Math.round(m(wall, 'rate'))} | ${m(wall, 'worker').toFixed(1)} | ${m(wall, 'serving').toFixed(1)} | ${wall === 'none' ? '—' : `${costOf(wall).toFixed(1)} %`} |`;
    const cost = costOf('all');
    const lines = [
      `# Moderation rules: cost at ingestion (${new Date().toISOString().slice(0, 10)})`,
      '',
      `${PAGES} pages of ${PER_PAGE} Mastodon statuses per run, a fresh SQLite store per run, ${ROUNDS} runs of each wall in turns; medians of CPU time.`,
      'Rules never match here, so every rule runs for every post. The rules run in the parse workers: the serving thread only reads their decision.',
      '',
      '| wall | posts per CPU-second (worker + serving thread) | worker CPU ms/page | serving thread CPU ms/page | cost |',
      '| --- | ---: | ---: | ---: | ---: |',
      row('no rules', 'none'),
      row('50 rules: 20 keyword, 15 author, 5 profanity, 5 media, 5 length', 'all'),
      row('the same 45 without the profanity rules', 'noProfanity'),
      '',
      `Cost of 50 rules: ${cost.toFixed(1)} % of ingestion throughput (budget: < 10 %).`,
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
