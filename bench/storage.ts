// The storage a post takes (issue 34, the capacity model's 100 M posts row).
// A generated data file (bench/generate.ts: 20 walls of 10,000 posts, the
// same posts bench/run.ts imports) is imported into a fresh PostgreSQL
// database and a fresh SQLite file; then each table's heap (with TOAST) and
// indexes are measured (pg_table_size, pg_indexes_size; SQLite's dbstat),
// and the whole store against an empty migrated one (pg_database_size, the
// SQLite file). Sizes do not depend on the machine's load.
// Writes bench/storage-results.md.
//
// Options: --quick (20,000 posts), --posts N (default 200,000).
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { writeDataFile, type WallSpec } from './generate.js';
import { benchServices, unreachable } from './postgres.js';
import { log, ROOT } from './process.js';

const quick = process.argv.includes('--quick');
const postsArg = process.argv.indexOf('--posts');
const POSTS = postsArg > 0 ? Number(process.argv[postsArg + 1]) : quick ? 20_000 : 200_000;
const WALLS = 20;
const TARGET_POSTS = 100_000_000;
const DATA = join(ROOT, 'bench', 'data-storage');

interface TableSize {
  name: string;
  rows: number;
  /** the table's own pages (heap and TOAST in PostgreSQL) */
  table: number;
  indexes: number;
}

interface StoreSize {
  store: string;
  tables: TableSize[];
  /** the whole store, less an empty migrated one */
  total: number;
  /** the posts' average text (content column), bytes */
  avgContent: number;
}

function cli(args: string[], env: Record<string, string>) {
  execFileSync(process.execPath, ['--max-old-space-size=4096', 'dist/cli/main.js', ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
}

async function measurePostgres(file: string): Promise<StoreSize> {
  const empty = await benchServices();
  const full = await benchServices();
  try {
    cli(['migrate'], { DATABASE_URL: empty.env.DATABASE_URL });
    cli(['import', file], { DATABASE_URL: full.env.DATABASE_URL });
    const size = async (url: string) => {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        // the statistics and visibility map a running database would have
        await client.query('vacuum analyze');
        const db = await client.query<{ n: string }>('select pg_database_size(current_database()) as n');
        const tables = await client.query<{ name: string; rows: string; tbl: string; idx: string }>(
          `select c.relname as name, c.reltuples::bigint as rows, pg_table_size(c.oid) as tbl, pg_indexes_size(c.oid) as idx
           from pg_class c join pg_namespace n on n.oid = c.relnamespace
           where n.nspname = 'public' and c.relkind = 'r'`,
        );
        const content = await client.query<{ n: string | null }>('select avg(octet_length(content)) as n from posts');
        return {
          database: Number(db.rows[0]!.n),
          avgContent: Number(content.rows[0]!.n ?? 0),
          tables: tables.rows.map((r) => ({
            name: r.name,
            rows: Math.max(0, Number(r.rows)),
            table: Number(r.tbl),
            indexes: Number(r.idx),
          })),
        };
      } finally {
        await client.end();
      }
    };
    const before = await size(empty.env.DATABASE_URL);
    const after = await size(full.env.DATABASE_URL);
    return {
      store: 'PostgreSQL',
      tables: after.tables,
      total: after.database - before.database,
      avgContent: after.avgContent,
    };
  } finally {
    await empty.drop();
    await full.drop();
  }
}

function measureSqlite(file: string): StoreSize {
  const size = (path: string) => {
    const db = new Database(path);
    try {
      db.pragma('wal_checkpoint(TRUNCATE)');
      const pages = db
        .prepare(
          `select s.name as name, m.type as type, coalesce(m.tbl_name, s.name) as tbl, sum(s.pgsize) as bytes
           from dbstat s left join sqlite_schema m on m.name = s.name group by s.name`,
        )
        .all() as { name: string; type: string | null; tbl: string; bytes: number }[];
      const tables = new Map<string, TableSize>();
      for (const p of pages) {
        const t = tables.get(p.tbl) ?? { name: p.tbl, rows: 0, table: 0, indexes: 0 };
        if (p.type === 'index') t.indexes += p.bytes;
        else t.table += p.bytes;
        tables.set(p.tbl, t);
      }
      for (const t of tables.values()) {
        if (/^[a-z_][a-z0-9_]*$/.test(t.name) && !t.name.startsWith('sqlite_')) {
          t.rows = (db.prepare(`select count(*) as n from "${t.name}"`).get() as { n: number }).n;
        }
      }
      const hasPosts = tables.has('posts');
      const avgContent = hasPosts
        ? ((db.prepare('select avg(length(cast(content as blob))) as n from posts').get() as { n: number | null }).n ??
          0)
        : 0;
      return { tables: [...tables.values()], avgContent };
    } finally {
      db.close();
    }
  };
  const emptyPath = join(DATA, 'empty.db');
  const fullPath = join(DATA, 'full.db');
  cli(['migrate'], { DATABASE_URL: emptyPath });
  cli(['import', file], { DATABASE_URL: fullPath });
  const after = size(fullPath);
  size(emptyPath);
  const total = statSync(fullPath).size - statSync(emptyPath).size;
  return { store: 'SQLite', tables: after.tables, total, avgContent: after.avgContent };
}

async function main() {
  rmSync(DATA, { recursive: true, force: true });
  mkdirSync(DATA, { recursive: true });
  const file = join(DATA, 'data.json');
  const perWall = Math.ceil(POSTS / WALLS);
  const walls: WallSpec[] = Array.from({ length: WALLS }, (_, i) => ({
    id: 9000 + i,
    posts: perWall,
    firstPostId: 90_000_000 + i * perWall,
    feeds: 3,
  }));
  log(`generating ${POSTS.toLocaleString('en')} posts…`);
  const posts = await writeDataFile(file, walls, true);
  const results: StoreSize[] = [];
  try {
    log('SQLite…');
    results.push(measureSqlite(file));
    const missing = await unreachable();
    if (missing) log(`PostgreSQL left out: ${missing} does not answer`);
    else {
      log('PostgreSQL…');
      results.push(await measurePostgres(file));
    }
  } finally {
    rmSync(DATA, { recursive: true, force: true });
  }
  writeResults(results, posts);
}

function writeResults(results: StoreSize[], posts: number) {
  const fmt = (n: number, digits = 0) =>
    n.toLocaleString('en', { minimumFractionDigits: digits, maximumFractionDigits: digits });
  const mb = (n: number) => fmt(n / 1e6, 1);
  const lines = [
    '# Storage per post',
    '',
    `Generated by \`tsx bench/storage.ts\` (part of \`npm run bench\`) on ${new Date().toISOString().slice(0, 10)}. ` +
      `${fmt(posts)} posts (${WALLS} walls of ${fmt(Math.ceil(posts / WALLS))}, 3 feeds each; the posts of ` +
      '`bench/generate.ts`, as `bench/run.ts` imports them: a short text, picture and link URLs, an author, tags, ' +
      'carousel children, product tags) imported with `wallery import` into a fresh store, then measured: ' +
      "PostgreSQL after `vacuum analyze` (each table's heap with its TOAST, `pg_table_size`, and its indexes, " +
      "`pg_indexes_size`; the whole store as `pg_database_size` less an empty migrated database's), SQLite with " +
      "`dbstat` (its file less an empty migrated one's, after a WAL checkpoint). Sizes do not depend on the " +
      "machine's load, but on the posts' text: real posts' text is longer than these (see the average below).",
    '',
  ];
  for (const r of results) {
    const tables = r.tables
      .filter((t) => t.table + t.indexes > 0)
      .sort((a, b) => b.table + b.indexes - (a.table + a.indexes));
    const postsTable = r.tables.find((t) => t.name === 'posts')!;
    // the tables that hold at least 0.5 % of the store; the rest in one line
    const shown = tables.filter((t) => t.table + t.indexes >= r.total * 0.005);
    lines.push(
      `## ${r.store}`,
      '',
      '| Table | rows | table MB | indexes MB | total MB | bytes per post |',
      '| ----- | ---: | -------: | ---------: | -------: | -------------: |',
      ...shown.map(
        (t) =>
          `| ${t.name} | ${fmt(t.rows)} | ${mb(t.table)} | ${mb(t.indexes)} | ${mb(t.table + t.indexes)} | ${fmt((t.table + t.indexes) / posts)} |`,
      ),
      `| (${tables.length - shown.length} smaller tables) | | | | ${mb(tables.slice(shown.length).reduce((n, t) => n + t.table + t.indexes, 0))} | |`,
      `| **the store** (less an empty one) | | | | **${mb(r.total)}** | **${fmt(r.total / posts)}** |`,
      '',
      `- The posts table: ${fmt(postsTable.table / posts)} bytes a post, its indexes ${fmt(postsTable.indexes / posts)}: ` +
        `${fmt((postsTable.table + postsTable.indexes) / posts)} together; the average post text here is ${fmt(r.avgContent)} bytes.`,
      `- ${fmt(TARGET_POSTS / 1e6)} M posts: ${fmt(TARGET_POSTS / 1e6)} M × ${fmt(r.total / posts)} bytes = ` +
        `**${fmt((TARGET_POSTS * (r.total / posts)) / 1e9)} GB** (each extra KB of text a post adds up to 100 GB more, less what compression saves).`,
      '',
    );
  }
  writeFileSync(join(ROOT, 'bench', 'storage-results.md'), lines.join('\n'));
  process.stdout.write(lines.join('\n'));
}

await main();
