// `wallery analytics WALL`: a wall's report from the counters, as a table,
// --json (the API's responseData) or --csv, and its errors in one line.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dayText, parseDay } from '../../src/domain/analytics.js';
import { utcDay } from '../../src/domain/dates.js';
import { addCounts } from '../../src/store/analytics.js';
import { importDataFile } from '../../src/store/datafile.js';
import { openStore } from '../../src/store/store.js';
import { runCli } from '../helpers/cli.js';
import { hasSampleData, loadSampleData, makeTempDir, removeDir } from '../helpers/server.js';

const TODAY = utcDay(Date.now());
const day = (offset: number) => dayText(TODAY + offset);

describe.skipIf(!hasSampleData)('wallery analytics', () => {
  let dir: string;
  let db: string;
  beforeAll(async () => {
    dir = makeTempDir();
    db = join(dir, 'wallery.db');
    const store = openStore({ kind: 'sqlite', path: db });
    await store.migrate();
    await importDataFile(store, loadSampleData(), Date.now());
    const c = (
      offset: number,
      type: 'wall_load' | 'impression' | 'click' | 'product_click',
      post: number,
      n: number,
    ) => ({
      wallId: 7011,
      day: TODAY + offset,
      type,
      postId: post,
      productId: type === 'product_click' ? 7502 : 0,
      n,
    });
    await addCounts(store.db, [
      c(0, 'wall_load', 0, 3),
      c(0, 'impression', 17001, 8),
      c(0, 'click', 17001, 2),
      c(-1, 'impression', 17010, 4),
      c(-1, 'product_click', 17010, 1),
    ]);
    await store.close();
  });
  afterAll(() => removeDir(dir));

  it('prints the totals, the days and the top posts and products', async () => {
    const r = await runCli(['analytics', '7011', '--from', day(-1), '--to', day(0), '--database', db]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(`wall 7011, ${day(-1)} to ${day(0)} (UTC)`);
    expect(r.stdout).toMatch(/impressions\s+12\n/);
    expect(r.stdout).toMatch(/ctr\s+0.25\n/);
    expect(r.stdout).toMatch(new RegExp(`${day(0)}\\s+3\\s+8\\s+2\\s+0\\s+0\\s+0.25`));
    expect(r.stdout).toMatch(/top posts\npostId\s+impressions.*\n17001\s+8\s+2/);
    expect(r.stdout).toMatch(/top products\n.*\n7502\s+"quoted" product 2\s+1/);
  });

  it('--json prints the API’s responseData; --csv the days', async () => {
    const json = await runCli(['analytics', '7011', '--json', '--database', db]);
    expect(json.code, json.stderr).toBe(0);
    const report = JSON.parse(json.stdout) as { from: string; to: string; days: unknown[]; totals: unknown };
    // today by default (the CLI's today: a run across midnight UTC sees the next day)
    expect([day(0), day(1)]).toContain(report.to);
    expect(report.from).toBe(dayText(parseDay(report.to)! - 29));
    expect(report.days).toHaveLength(30);
    expect(report.totals).toEqual({
      wallLoads: 3,
      impressions: 12,
      clicks: 2,
      ctaClicks: 0,
      productClicks: 1,
      ctr: 0.25,
    });
    const csv = await runCli(['analytics', '7011', '--csv', '--from', day(-1), '--to', day(0), '--database', db]);
    expect(csv.code, csv.stderr).toBe(0);
    expect(csv.stdout).toBe(
      [
        'day,wallLoads,impressions,clicks,ctaClicks,productClicks,ctr',
        `${day(-1)},0,4,0,0,1,0.25`,
        `${day(0)},3,8,2,0,0,0.25`,
        '',
      ].join('\n'),
    );
  });

  it('refuses a bad range or an unknown wall in one line', async () => {
    const cases: [string[], RegExp][] = [
      [['--from', '2026/01/01', '--to', 'today'], /^wallery: from must be a day as YYYY-MM-DD; to must be a day/],
      [['--from', day(0), '--to', day(-1)], /^wallery: from must not be after to\n$/],
      [['--from', day(-400)], /^wallery: the range must span at most 366 days\n$/],
      [['--csv', '--json'], /^wallery: --csv and --json cannot be used together\n$/],
    ];
    for (const [args, message] of cases) {
      const r = await runCli(['analytics', '7011', ...args, '--database', db]);
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(message);
    }
    const unknown = await runCli(['analytics', '999999', '--database', db]);
    expect([unknown.code, unknown.stderr]).toEqual([1, 'wallery: wall 999999 not found\n']);
    const bad = await runCli(['analytics', 'x', '--database', db]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/wall id must be a positive integer/);
  });
});
