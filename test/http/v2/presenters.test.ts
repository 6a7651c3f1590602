// The presenters return exactly what the published schemas say, for every
// post of the data files we have (the sample data, the demo data) on a real
// store — the v2 bodies are pre-rendered strings, so this is where the v2
// schemas are held against real output. The management API's post records
// and the data-file export are checked the same way, and so is every example
// the OpenAPI document shows. A stored post field added without its schema
// (or the reverse) fails here (CONTRIBUTING.md: adding a post field).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { TSchema } from 'typebox';
import * as V2 from '../../../src/http/v2/schemas.js';
import {
  commerceListWall,
  commercePost,
  commerceWallInfo,
  postDetail,
  widgetListWall,
  widgetPost,
  widgetWallInfo,
} from '../../../src/http/v2/presenters.js';
import { PostRecord } from '../../../src/schemas/posts.js';
import { listModerationPosts } from '../../../src/manage/posts.js';
import { DataFileSchema, exportDataFile, importDataFile } from '../../../src/store/datafile.js';
import { publicFeedsOf } from '../../../src/store/feeds.js';
import { selectPostsWithFeed } from '../../../src/store/posts.js';
import { productsOfPost } from '../../../src/store/products.js';
import { demoDataFile } from '../../../src/demo/demo-data.js';
import type { Store } from '../../../src/store/store.js';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { hasSampleData, loadSampleData } from '../../helpers/server.js';
import { makeTempDir, removeDir } from '../../helpers/server.js';
import { openTestStore, type TestStore } from '../../helpers/store.js';

type FormatsPlugin = (ajv: Ajv2020) => Ajv2020;
const ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false });
(addFormats as unknown as FormatsPlugin)(ajv);

/** The schema's complaints about `value` (empty when it conforms). */
function problems(schema: TSchema | object, value: unknown): string[] {
  const validate = ajv.compile(schema as object);
  if (validate(value)) return [];
  return (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? ''} ${JSON.stringify(e.params)}`);
}

const NOW = Date.UTC(2026, 0, 15, 12, 0, 0);

async function everyPresentedRecord(store: Store) {
  const out: { what: string; schema: TSchema; value: unknown }[] = [];
  const walls = await store.db.selectFrom('walls').selectAll().orderBy('id').execute();
  for (const wall of walls) {
    const feeds = await publicFeedsOf(store.db, wall.id);
    out.push({ what: `W1 ${wall.id}`, schema: V2.WidgetWallInfo, value: widgetWallInfo(wall, feeds, 'iso') });
    out.push({ what: `W1 xml ${wall.id}`, schema: V2.WidgetWallInfo, value: widgetWallInfo(wall, feeds, 'long') });
    out.push({ what: `C1 ${wall.id}`, schema: V2.CommerceWallInfo, value: commerceWallInfo(wall, feeds) });
    out.push({ what: `W2 wall ${wall.id}`, schema: V2.WidgetListWall, value: widgetListWall(wall, 'iso') });
    out.push({ what: `C2 wall ${wall.id}`, schema: V2.CommerceListWall, value: commerceListWall(wall) });
    const posts = await selectPostsWithFeed(store.db).where('posts.wall_id', '=', wall.id).execute();
    for (const post of posts) {
      const products = await productsOfPost(store.db, post.id);
      out.push({ what: `W2 post ${post.id}`, schema: V2.WidgetPost, value: widgetPost(post, wall.profanity) });
      out.push({ what: `C2 post ${post.id}`, schema: V2.CommercePost, value: commercePost(post) });
      for (const form of ['iso', 'long'] as const) {
        out.push({
          what: `C5 ${post.id} ${form}`,
          schema: V2.PostDetail,
          value: postDetail(wall.id, post, products, form),
        });
      }
    }
    const records = await listModerationPosts(store.db, wall.id, {}, { limit: 200 });
    for (const record of records.data)
      out.push({ what: `manage post ${record.id}`, schema: PostRecord, value: record });
  }
  return out;
}

async function exported(store: Store, dir: string): Promise<unknown> {
  const path = join(dir, `export-${Math.random().toString(36).slice(2)}.json`);
  await exportDataFile(store.db, path);
  return JSON.parse(readFileSync(path, 'utf8'));
}

const sources: { name: string; data: () => unknown; skip: boolean }[] = [
  { name: 'the sample data', data: () => loadSampleData(), skip: !hasSampleData },
  { name: 'the demo data', data: () => demoDataFile(NOW), skip: false },
];

for (const source of sources) {
  describe.skipIf(source.skip)(`presenters on ${source.name}`, () => {
    let dir: string;
    let test: TestStore;
    beforeAll(async () => {
      dir = makeTempDir();
      test = await openTestStore(dir);
      await importDataFile(test.store, source.data() as never, NOW);
    });
    afterAll(async () => {
      await test.close();
      removeDir(dir);
    });

    it('every v2 record and every management post record conforms to its schema', async () => {
      const records = await everyPresentedRecord(test.store);
      expect(records.length).toBeGreaterThan(10);
      const failures = records
        .map((r) => ({ what: r.what, problems: problems(r.schema, r.value) }))
        .filter((r) => r.problems.length > 0);
      expect(failures).toEqual([]);
    });

    it('the data-file export conforms to the data-file schema and imports back unchanged', async () => {
      const first = await exported(test.store, dir);
      expect(problems(DataFileSchema, first)).toEqual([]);
      const dir2 = makeTempDir();
      const again = await openTestStore(dir2, 'again');
      try {
        await importDataFile(again.store, first as never, NOW);
        expect(await exported(again.store, dir2)).toEqual(first);
      } finally {
        await again.close();
        removeDir(dir2);
      }
    });
  });
}

describe('the examples of the OpenAPI document', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => server.close());

  it('each conforms to the schema it illustrates', async () => {
    const doc = (await (await fetch(`${server.baseUrl}/openapi.json`)).json()) as Record<string, unknown>;
    const found: { at: string; schema: object; example: unknown }[] = [];
    // an `examples` list inside a schema, or `example`/`examples` next to a media type's schema
    const walk = (node: unknown, at: string) => {
      if (node === null || typeof node !== 'object') return;
      const n = node as Record<string, unknown>;
      if (n.schema && typeof n.schema === 'object') {
        if ('example' in n) found.push({ at, schema: n.schema, example: n.example });
        const named = n.examples as Record<string, { value?: unknown }> | undefined;
        if (named && !Array.isArray(named))
          for (const [k, v] of Object.entries(named))
            found.push({ at: `${at}/${k}`, schema: n.schema, example: v.value });
      }
      if (Array.isArray(n.examples) && (n.type !== undefined || n.properties !== undefined || n.anyOf !== undefined))
        for (const [i, e] of n.examples.entries()) found.push({ at: `${at}[${i}]`, schema: n, example: e });
      for (const [k, v] of Object.entries(n)) if (k !== 'examples' && k !== 'example') walk(v, `${at}/${k}`);
    };
    walk(doc.paths, '#/paths');
    expect(found.length).toBeGreaterThan(20);
    const wrong = found
      .filter((f) => typeof f.example !== 'string' || !/^\s*</.test(f.example)) // XML examples are text
      .map((f) => ({ at: f.at, problems: problems({ ...f.schema, components: doc.components }, f.example) }))
      .filter((f) => f.problems.length > 0);
    expect(wrong).toEqual([]);
  });
});
