// The demo data set looks like three real walls: each its own theme, posts,
// authors and networks; no text on two walls; every picture a file of
// demo/media credited in demo/ATTRIBUTION.md; every link a page of this
// instance (no made-up hosts); products only on posts with pictures, their
// hotspots on the product in the picture; dates within the last days of the
// first start, newest first.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { DEMO_AUTHORS } from '../../src/demo/demo-authors.js';
import { DEMO_KEYS, DEMO_SPAN_DAYS, DEMO_WALLS, demoDataFile, demoMediaBase } from '../../src/demo/demo-data.js';
import { DEMO_PRODUCTS, DEMO_SCENES } from '../../src/demo/demo-scenes.js';
import type { PostIn } from '../../src/store/datafile/format.js';

const MEDIA_DIR = fileURLToPath(new URL('../../demo/media/', import.meta.url));
const ATTRIBUTION = fileURLToPath(new URL('../../demo/ATTRIBUTION.md', import.meta.url));
const BASE = 'http://localhost:3000';
const MEDIA = demoMediaBase(BASE);
const NOW = Date.UTC(2026, 2, 14, 9, 30);
const data = demoDataFile(NOW, MEDIA);
const walls = data.walls!;
const postsOf = (wallId: number): PostIn[] => walls.find((w) => w.id === wallId)!.feeds!.flatMap((f) => f.posts ?? []);
const allPosts = walls.flatMap((w) => postsOf(w.id));
const byDate = (posts: PostIn[]) => [...posts].sort((a, b) => b.createdAt.localeCompare(a.createdAt));

/** Every URL anywhere in the data file. */
function urls(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string' && /^[a-z]+:\/\//i.test(value)) out.push(value);
  else if (Array.isArray(value)) for (const v of value) urls(v, out);
  else if (value && typeof value === 'object') for (const v of Object.values(value)) urls(v, out);
  return out;
}

/** demo/ATTRIBUTION.md's table: file → its rows (a composed picture has one row per source). */
function attribution(): Map<string, Record<string, string>[]> {
  const rows = new Map<string, Record<string, string>[]>();
  const lines = readFileSync(ATTRIBUTION, 'utf8').split('\n');
  const head = lines.findIndex((l) => /^\|\s*File\s*\|/.test(l));
  expect(head).toBeGreaterThan(0);
  const cells = (l: string) =>
    l
      .slice(1, -1)
      .split(/(?<!\\)\|/)
      .map((c) => c.trim());
  const names = cells(lines[head]!);
  for (const line of lines.slice(head + 2)) {
    if (!line.startsWith('|')) break;
    const row = Object.fromEntries(cells(line).map((c, i) => [names[i]!, c]));
    rows.set(row.File!, [...(rows.get(row.File!) ?? []), row]);
  }
  return rows;
}

describe('the demo data set', () => {
  it('has three walls with names, slugs and looks of their own', () => {
    expect(walls.map((w) => w.id)).toEqual(DEMO_WALLS.map((w) => w.id));
    expect(new Set(walls.map((w) => w.name)).size).toBe(3);
    expect(new Set(walls.map((w) => w.url)).size).toBe(3);
    expect(walls.map((w) => [w.layout, w.theme])).toEqual([
      ['masonry', 'light'],
      ['event', 'dark'],
      ['masonry', 'auto'],
    ]);
    expect(DEMO_KEYS.map((k) => k.wallId).filter(Boolean)).toEqual(DEMO_WALLS.map((w) => w.id));
  });

  it('gives each wall 20–40 posts of its own, no text on two walls, ids unique', () => {
    for (const w of walls) expect(postsOf(w.id).length).toBeGreaterThanOrEqual(20);
    for (const w of walls) expect(postsOf(w.id).length).toBeLessThanOrEqual(40);
    const texts = allPosts.map((p) => p.content);
    expect(new Set(texts).size).toBe(texts.length);
    expect(new Set(allPosts.map((p) => p.id)).size).toBe(allPosts.length);
    // no picture on two walls either
    const pictures = walls.map((w) => new Set(postsOf(w.id).flatMap((p) => (p.children ?? []).map((c) => c.image))));
    for (const [i, a] of pictures.entries())
      for (const b of pictures.slice(i + 1)) expect([...a].filter((x) => b.has(x))).toEqual([]);
  });

  it('mixes kinds of posts, authors and networks on every wall', () => {
    for (const w of walls) {
      const posts = postsOf(w.id);
      const kinds = new Set(posts.map((p) => p.postType));
      expect(kinds.has(1) && kinds.has(2)).toBe(true); // text and image posts
      expect(posts.some((p) => p.pin === 1)).toBe(true);
      expect(posts.some((p) => p.highlight === 1)).toBe(true);
      expect(new Set(posts.map((p) => p.username)).size).toBeGreaterThanOrEqual(4);
      expect(new Set(posts.map((p) => p.networkName)).size).toBeGreaterThanOrEqual(3);
      const lengths = posts.map((p) => p.content!.length);
      expect(Math.max(...lengths)).toBeGreaterThan(3 * Math.min(...lengths));
    }
    expect(allPosts.some((p) => p.postType === 3)).toBe(true); // video
    expect(allPosts.some((p) => p.postType === 4 && p.children!.length >= 2)).toBe(true); // carousel
    expect(new Set(allPosts.map((p) => p.authorName)).size).toBeGreaterThanOrEqual(12);
    expect(new Set(allPosts.map((p) => p.username)).size).toBeGreaterThanOrEqual(12);
    expect(new Set(allPosts.map((p) => p.userPicture)).size).toBeGreaterThanOrEqual(12);
    expect(new Set(allPosts.map((p) => p.networkName))).toEqual(
      new Set(['Instagram', 'Mastodon', 'Bluesky', 'YouTube', 'RSS', 'Lemmy', 'Facebook']),
    );
  });

  it('links only to pages and files of this instance that exist', () => {
    const all = urls(data);
    expect(all.length).toBeGreaterThan(200);
    const foreign = all.filter((u) => !u.startsWith(`${MEDIA}/`));
    expect(foreign).toEqual([]);
    for (const url of all) {
      const file = url.slice(MEDIA.length + 1).replace(/#.*$/, '');
      expect(existsSync(`${MEDIA_DIR}${file}`), url).toBe(true);
    }
    // the anchors of the shop page are there
    const shop = readFileSync(`${MEDIA_DIR}shop.html`, 'utf8');
    for (const p of data.products!) expect(shop).toContain(`id="${new URL(p.url!).hash.slice(1)}"`);
  });

  it('credits every picture and clip in demo/ATTRIBUTION.md, with package, file, author, licence and link', () => {
    const credits = attribution();
    const files = new Set(
      urls(data)
        .map((u) => u.slice(MEDIA.length + 1).replace(/#.*$/, ''))
        .filter((f) => !f.endsWith('.html')),
    );
    for (const file of files) {
      const rows = credits.get(file);
      expect(rows, file).toBeDefined();
      for (const row of rows!) {
        expect(row.Licence, file).not.toBe('');
        expect(row.Author, file).not.toBe('');
        if (row.Author !== 'Wallery') {
          expect(row['Source package'], file).toMatch(/^[a-z0-9.+-]+ \S+$/);
          expect(row['Original file'], file).toMatch(/^\/usr\/share\/|^\/usr\/lib\//);
          expect(row.Link, file).toMatch(/^https?:\/\//);
        }
      }
    }
    // and every photograph in demo/media is one the attribution names
    const photos = readdirSync(MEDIA_DIR).filter((f) => /\.(jpg|png|webp|mp4)$/.test(f));
    for (const f of photos) expect(credits.has(f), f).toBe(true);
    const size = photos.reduce((sum, f) => sum + statSync(`${MEDIA_DIR}${f}`).size, 0);
    expect(size).toBeLessThan(6 * 1024 * 1024);
  });

  it('tags products only on posts with pictures, on the product the picture shows, with "Shop the look"', () => {
    const tagged = allPosts.filter((p) => (p.products ?? []).length > 0);
    expect(tagged.length).toBeGreaterThanOrEqual(5);
    expect(tagged.every((p) => postsOf(101).includes(p))).toBe(true);
    for (const p of allPosts) {
      const products = p.products ?? [];
      expect(p.cta !== null && p.cta !== undefined, `post ${p.id}`).toBe(products.length > 0);
      if (products.length === 0) continue;
      expect(p.picture, `post ${p.id}`).not.toBe('');
      const scene = DEMO_SCENES.find((s) => p.picture === `${MEDIA}/${s.file}`);
      expect(scene, `post ${p.id}`).toBeDefined();
      // each hotspot is inside its product's box in the picture
      for (const tag of products) {
        const item = scene!.items.find((i) => i.productId === tag.productId)!;
        expect(item, `post ${p.id} product ${tag.productId}`).toBeDefined();
        const halfH = item.height / 2;
        expect(Math.abs(tag.top - item.top)).toBeLessThan(halfH);
        expect(tag.left).toBeGreaterThan(0);
        expect(tag.left).toBeLessThan(100);
      }
    }
    // the products are the shop's, each with its own picture
    expect(data.products!.map((p) => p.id)).toEqual(DEMO_PRODUCTS.map((p) => p.id));
    const shoppable = DEMO_KEYS[0];
    expect(postsOf(shoppable.wallId).find((p) => p.id === shoppable.taggedPostId)!.products!.length).toBeGreaterThan(0);
  });

  it('dates the posts within the last days before the first start, newest first, a wall’s order as listed', () => {
    for (const w of walls) {
      const posts = postsOf(w.id);
      const listed = [...posts].sort((a, b) => a.id - b.id);
      expect(byDate(posts).map((p) => p.id)).toEqual(listed.map((p) => p.id));
      for (const p of posts) {
        const age = NOW - Date.parse(p.createdAt);
        expect(age).toBeGreaterThan(0);
        expect(age).toBeLessThanOrEqual(DEMO_SPAN_DAYS * 86_400_000);
      }
      // minutes for the newest, days for the oldest
      expect(NOW - Date.parse(byDate(posts)[0]!.createdAt)).toBeLessThan(3_600_000);
      expect(NOW - Date.parse(byDate(posts).at(-1)!.createdAt)).toBeGreaterThan(7 * 86_400_000);
    }
    // the same start makes the same data
    expect(demoDataFile(NOW, MEDIA)).toEqual(data);
  });

  it('knows every author it uses', () => {
    const handles = new Set(DEMO_AUTHORS.map((a) => a.username));
    for (const p of allPosts) expect(handles.has(p.username!)).toBe(true);
  });
});
