// The documented migration path: export from SQLite, import into PostgreSQL,
// and every read of the API answers byte for byte the same.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { startInstance, type Instance } from '../helpers/instances.js';
import { hasSampleData, loadSampleData, SAMPLE_DATA_PATH, SKIP_NO_SAMPLE } from '../helpers/server.js';
import { createTestDatabase, dropTestDatabase } from '../helpers/services.js';

let dir: string;
let db: { name: string; url: string };
let sqlite: Instance;
let postgres: Instance;

describe.skipIf(!hasSampleData)(`SQLite → PostgreSQL (${hasSampleData ? 'sample data' : SKIP_NO_SAMPLE})`, () => {
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'wallery-migrate-'));
    db = await createTestDatabase();
    const file = join(dir, 'wallery.db');
    const exported = join(dir, 'export.json');
    expect((await runCli(['import', SAMPLE_DATA_PATH, '--database', file])).code).toBe(0);
    expect((await runCli(['export', exported, '--database', file])).code).toBe(0);
    const imported = await runCli(['import', exported, '--database', db.url]);
    expect(imported.code, imported.stderr).toBe(0);
    [sqlite, postgres] = await Promise.all([
      startInstance({ DATABASE_URL: file }),
      startInstance({ DATABASE_URL: db.url }),
    ]);
  });

  afterAll(async () => {
    await Promise.all([sqlite?.stop(), postgres?.stop()]);
    await dropTestDatabase(db.name);
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers every read identically', async () => {
    const sample = loadSampleData() as {
      accounts: { id: number; userKeys: string[]; plan: string }[];
      walls: { id: number; accountId: number; feeds: { posts: { id: number }[] }[] }[];
    };
    const paths: string[] = [];
    for (const wall of sample.walls) {
      const key = sample.accounts.find((a) => a.id === wall.accountId)!.userKeys[0]!;
      for (const format of ['json', 'xml']) {
        const q = `user_key=${key}&format=${format}`;
        paths.push(
          `/api/v2/widget/wallInfo/${wall.id}?${q}`,
          `/api/v2/widget/posts/${wall.id}?${q}&limit=500`,
          `/api/v2/widget/posts/${wall.id}?${q}&limit=7&offset=3&include_only_image_posts=1&include_only_text_posts=true`,
          `/api/v2/commerce/getGalleryInfo/${wall.id}?${q}`,
          `/api/v2/commerce/getGalleryPosts/${wall.id}/?${q}&date_from=01/01/2025`,
        );
        for (const post of wall.feeds.flatMap((f) => f.posts).slice(0, 5)) {
          paths.push(`/api/v2/commerce/getGalleryProductByID/${wall.id}/${post.id}/?${q}`);
        }
      }
    }
    let compared = 0;
    for (const path of paths) {
      const [a, b] = await Promise.all([fetch(sqlite.url + path), fetch(postgres.url + path)]);
      expect(b.status, path).toBe(a.status);
      expect(await b.text(), path).toBe(await a.text());
      compared += 1;
    }
    expect(compared).toBeGreaterThan(100);
  });
});
