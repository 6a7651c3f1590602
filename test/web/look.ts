// What the browser tests of the wall's look share (layouts.test.ts,
// event.test.ts): a real server whose walls hold varied posts — short and
// long text, text only, landscape, portrait, square and panorama pictures
// (Wallery's copies, made with sharp), pinned and featured posts — an empty
// wall and, when asked, a wall of 10,000 posts; the branding the event
// screen reads; and the measures of a card's empty space and of horizontal
// overflow.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import sharp from 'sharp';
import { demoDataFile } from '../../src/demo/demo-data.js';
import { CLI_ACTOR } from '../../src/manage/op.js';
import { createPublishableKey } from '../../src/manage/publishable-keys.js';
import { FolderStorage } from '../../src/media/folder-storage.js';
import type { DataFile } from '../../src/store/datafile.js';
import { inlineProcessor, insertPicture, setMediaState, storePicture } from '../helpers/media.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

export const LOOK_WALLS = { varied: 801, empty: 802, big: 803 } as const;
export const WAIT = 60_000;
const HOUR = 3_600_000;
const GONE = 'http://127.0.0.1:9';

/** The varied wall's posts with a picture: its size and colours. */
const PICTURES = [
  { w: 1600, h: 900, from: '#1e3c72', to: '#2a5298', sun: '#ffd86b' },
  { w: 800, h: 1200, from: '#134e5e', to: '#71b280', sun: '#f9f871' },
  { w: 1000, h: 1000, from: '#c04848', to: '#480048', sun: '#ffb199' },
  { w: 2400, h: 800, from: '#0f2027', to: '#2c5364', sun: '#9be7ff' },
  { w: 600, h: 1200, from: '#41295a', to: '#2f0743', sun: '#f7c6ff' },
  { w: 1200, h: 900, from: '#ee9ca7', to: '#ffdde1', sun: '#ffffff' },
  { w: 1080, h: 1350, from: '#f7971e', to: '#ffd200', sun: '#ffffff' },
  { w: 1920, h: 1080, from: '#0b486b', to: '#f56217', sun: '#fff3b0' },
] as const;

const SHORT = [
  'Who else is at the harbour stage tonight?',
  'Best. Festival. Ever.',
  'Doors open at 7 — see you there!',
];
const MID = [
  'Rain or shine, the crew shows up. Huge thanks to everyone who helped set up the main tent this morning — we could not have done it without you. #community',
  'Fresh batch of maple cookies at the stand until 6 pm! Bring a friend, bring two. The oat ones are gone already, sorry.',
];
const LONG =
  '<p>A long read from the harbour: we arrived at dawn, when the fog still sat on the water and the boats were only shapes. By eight the stalls were open, the coffee was strong and the first band was sound-checking on the pier.</p>' +
  '<p>What made the day was the people — the volunteers who carried crates for hours, the kids who ran the lemonade stand like a real business, the old sailors who told stories to anyone who would listen. We will be back next year, and we will bring more friends.</p>' +
  '<p>Thank you, Harborfest. See you in 2027.</p>';

interface Spec {
  id: number;
  text: string;
  picture?: number;
  pinned?: boolean;
  highlighted?: boolean;
  hoursAgo: number;
}

/** The varied wall: every kind of card, in the order the wall shows them (pinned first, then newest). */
export const VARIED: Spec[] = [
  {
    id: 80100,
    text: '<p>Trail maps for the season are in: pick one up at the stand.</p>',
    picture: 0,
    pinned: true,
    hoursAgo: 400,
  },
  { id: 80101, text: `<p>${SHORT[0]}</p>`, hoursAgo: 0.2 },
  {
    id: 80102,
    text: '<p>Sunrise over the ridge — worth every step of the 5 a.m. start.</p>',
    picture: 1,
    hoursAgo: 0.5,
  },
  { id: 80103, text: `<p>${MID[0]}</p>`, highlighted: true, hoursAgo: 1 },
  { id: 80104, text: '<p>The whole valley from the last switchback.</p>', picture: 3, hoursAgo: 1.5 },
  { id: 80105, text: LONG, hoursAgo: 2 },
  {
    id: 80106,
    text: '<p>Behind the scenes: setting up the main tent.</p>',
    picture: 2,
    highlighted: true,
    hoursAgo: 3,
  },
  { id: 80107, text: `<p>${SHORT[1]}</p>`, hoursAgo: 4 },
  { id: 80108, text: '<p>The old lighthouse at dusk.</p>', picture: 4, hoursAgo: 5 },
  { id: 80109, text: `<p>${MID[1]}</p>`, hoursAgo: 6 },
  {
    id: 80110,
    text: `<p>Our favourite picnic spot, now with a view of the lake. ${MID[0]}</p>`,
    picture: 5,
    hoursAgo: 8,
  },
  { id: 80111, text: `<p>${SHORT[2]}</p>`, hoursAgo: 10 },
  { id: 80112, text: '<p>Golden hour on the pier.</p>', picture: 6, hoursAgo: 20 },
  { id: 80113, text: LONG, picture: 7, hoursAgo: 30 },
  { id: 80114, text: '<p>Three peaks, two friends, one very tired dog.</p>', picture: 2, hoursAgo: 50 },
  { id: 80115, text: `<p>${MID[1]} ${MID[0]}</p>`, hoursAgo: 70 },
  { id: 80116, text: '<p>Night market lights.</p>', picture: 1, hoursAgo: 90 },
  { id: 80117, text: `<p>${SHORT[0]} Count me in.</p>`, hoursAgo: 100 },
  { id: 80118, text: '<p>Kayaks ready for the morning race.</p>', picture: 0, hoursAgo: 110 },
  { id: 80119, text: '<p>Stage two, second song, everyone singing.</p>', picture: 5, hoursAgo: 120 },
];

const AUTHORS = ['Ana Ruiz', 'Ben Okafor', 'Chloé Martin', 'Dev Patel', 'Harbour Festival'];
const NETWORKS = ['Mastodon', 'Bluesky', 'Instagram', 'RSS'];

async function picture(w: number, h: number, from: string, to: string, sun: string): Promise<Buffer> {
  const r = Math.round(Math.min(w, h) * 0.16);
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}">
    <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${from}"/><stop offset="1" stop-color="${to}"/></linearGradient></defs>
    <rect width="100%" height="100%" fill="url(#g)"/>
    <circle cx="${Math.round(w * 0.68)}" cy="${Math.round(h * 0.34)}" r="${r}" fill="${sun}"/>
    <path d="M0 ${h} L${Math.round(w * 0.3)} ${Math.round(h * 0.55)} L${Math.round(w * 0.55)} ${Math.round(h * 0.78)} L${Math.round(w * 0.8)} ${Math.round(h * 0.5)} L${w} ${Math.round(h * 0.7)} L${w} ${h} Z" fill="#00000055"/>
  </svg>`;
  return sharp(Buffer.from(svg)).jpeg({ quality: 85 }).toBuffer();
}

function lookData(now: number, big: number): DataFile {
  const iso = (ms: number) => new Date(ms).toISOString();
  const wall = (id: number, name: string, posts: NonNullable<DataFile['walls']>[number]['feeds'][number]['posts']) => ({
    id,
    accountId: 1,
    name,
    url: name.toLowerCase().replace(/\W+/g, '-'),
    profanity: 0,
    createdAt: iso(now - 100 * 24 * HOUR),
    feeds: [
      {
        id: id * 10,
        name: `${name} feed`,
        source: 'RSS',
        sourceType: 'feed',
        createdAt: iso(now - 50 * 24 * HOUR),
        updatedAt: iso(now),
        posts,
      },
    ],
  });
  const varied = VARIED.map((p, n) => ({
    id: p.id,
    networkName: NETWORKS[n % NETWORKS.length]!,
    postType: p.picture === undefined ? 1 : 2,
    media: p.picture === undefined ? ('text' as const) : ('image' as const),
    content: p.text,
    picture: p.picture === undefined ? '' : `${GONE}/p/${p.id}.jpg`,
    linkUrl: `https://social.example/p/${p.id}`,
    authorName: AUTHORS[n % AUTHORS.length]!,
    username: AUTHORS[n % AUTHORS.length]!.split(' ')[0]!.toLowerCase(),
    userPicture: '',
    alt: p.picture === undefined ? '' : `Picture of post ${p.id}`,
    createdAt: iso(now - p.hoursAgo * HOUR),
    pin: p.pinned ? 1 : 0,
    highlight: p.highlighted ? 1 : 0,
  }));
  const many = Array.from({ length: big }, (_, n) => ({
    id: 900_000 + n,
    networkName: NETWORKS[n % NETWORKS.length]!,
    postType: 1,
    media: 'text' as const,
    content: `<p>${[...SHORT, ...MID][n % 5]} (${n})</p>`,
    picture: '',
    linkUrl: `https://social.example/p/${900_000 + n}`,
    authorName: AUTHORS[n % AUTHORS.length]!,
    username: `user${n % 50}`,
    userPicture: '',
    createdAt: iso(now - (n + 1) * 60_000),
  }));
  const walls = [wall(LOOK_WALLS.varied, 'Harborfest 2026', varied), wall(LOOK_WALLS.empty, 'Harborfest Live', [])];
  if (big > 0) walls.push(wall(LOOK_WALLS.big, 'Busy Wall', many));
  return { version: 1, accounts: demoDataFile(now).accounts, products: [], walls };
}

export interface LookServer {
  srv: TestServer;
  /** publishable key of each wall */
  keys: Map<number, string>;
  close(): Promise<void>;
}

/** A server with the look walls (the 10,000-post one when `big`), every picture a ready copy. */
export async function startLookServer(big = 0): Promise<LookServer> {
  const dir = mkdtempSync(join(tmpdir(), 'wallery-look-'));
  const storage = new FolderStorage(dir);
  const now = Date.now();
  const srv = await startTestServer({
    data: lookData(now, big),
    now,
    media: { storage, processor: inlineProcessor() },
  });
  const db = srv.store.db;
  const blobs = await Promise.all(
    PICTURES.map(async (p) => storePicture(db, storage, await picture(p.w, p.h, p.from, p.to, p.sun))),
  );
  for (const p of VARIED) {
    if (p.picture === undefined) {
      await setMediaState(db, p.id, 'none');
      continue;
    }
    await insertPicture(db, {
      postId: p.id,
      slot: 'item:0',
      sourceUrl: `${GONE}/p/${p.id}.jpg`,
      state: 'ready',
      hash: blobs[p.picture]!.hash,
    });
    await setMediaState(db, p.id, 'ready');
  }
  const keys = new Map<number, string>();
  for (const wall of Object.values(LOOK_WALLS)) {
    if (wall === LOOK_WALLS.big && big === 0) continue;
    keys.set(wall, (await createPublishableKey({ db, actor: CLI_ACTOR, now }, wall, {})).key);
  }
  return {
    srv,
    keys,
    close: async () => {
      await srv.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The branding of the contract (EmbedWallSchema's `branding`), as the event screen reads it. */
export function branding(base: string) {
  return {
    accent: '#0e7c86',
    background: null,
    cardBackground: null,
    text: null,
    font: 'system',
    radius: 14,
    cardStyle: 'elevated',
    logoUrl: `${base}/demo-media/avatar-1.svg`,
    callToPost: 'Post with #harborfest',
    infoUrl: 'https://harborfest.example/wall',
    vars: {},
  };
}

/**
 * Adds `brand` to the wall the embed API returns on `page` (until every
 * server has the field, a test cannot count on it being there).
 */
export async function withBranding(page: Page, brand: unknown): Promise<void> {
  await page.route(/\/api\/embed\/v1\/walls\/\d+\?/, async (route) => {
    const res = await route.fetch();
    const body = (await res.json()) as { wall: Record<string, unknown> };
    await route.fulfill({ response: res, json: { wall: { ...body.wall, branding: brand } } });
  });
  // the hosted page carries the wall in its server-rendered JSON island too
  await page.route(/^https?:\/\/[^/]+\/walls\/\d+\?/, async (route) => {
    const res = await route.fetch();
    const html = (await res.text()).replace(
      /(<script type="application\/json" id="wallery-initial">)(.*?)(<\/script>)/s,
      (_m, open: string, json: string, close: string) => {
        const island = JSON.parse(json) as { wall?: { wall?: Record<string, unknown> } };
        if (island.wall?.wall) island.wall.wall.branding = brand;
        return open + JSON.stringify(island).replace(/</g, '\\u003c') + close;
      },
    );
    await route.fulfill({ response: res, body: html });
  });
}

/** Until the wall shows posts and every picture in the document has loaded (lazy ones started now). */
export async function settled(page: Page, posts = true): Promise<void> {
  await page.waitForFunction(
    (posts) => {
      const root = document.querySelector('wallery-wall')?.shadowRoot;
      if (!root) return false;
      if (posts && root.querySelectorAll('[data-post-id]').length === 0) return false;
      if (!posts && !root.querySelector('.waiting, .status')) return false;
      return [...root.querySelectorAll('img')].every((i) => {
        if (i.loading === 'lazy') i.loading = 'eager';
        return i.complete;
      });
    },
    posts,
    { timeout: WAIT },
  );
  // decoded too (a large picture may be loaded and not yet painted)
  await page.evaluate(() =>
    Promise.all(
      [...document.querySelector('wallery-wall')!.shadowRoot!.querySelectorAll('img')].map((i) =>
        i.decode().catch(() => undefined),
      ),
    ),
  );
  // two frames: the masonry's spans and the event page's fit are set after a render
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
}

export interface CardSpace {
  id: string;
  height: number;
  /** px of the card not covered by content, counting only stretches longer than the card's spacing */
  empty: number;
}

/**
 * The empty space of every card shown (a card hidden for the event screen's
 * next page is not shown). Defined precisely:
 *
 * - the card is the `article.post`'s border box, on the vertical axis;
 * - its content is what a person sees in it: every picture, video, QR, play
 *   button, flag, badge, avatar and button (their boxes), and every line of
 *   text (the boxes of the text's line fragments, from a Range over each
 *   text node — not the text element's box, which a stretched card would
 *   stretch too), each clipped to the card and to its text block (a clamped
 *   line is not seen);
 * - the union of those intervals covers part of the card's height; what is
 *   left is made of stretches between (and above, below) the content;
 * - a stretch up to 1.6 × the card's font size is spacing (padding, the gap
 *   between author, text and footer); longer stretches are empty space.
 *
 * A card is too empty when `empty` is more than 25 % of its height.
 */
export function cardSpaces(page: Page): Promise<CardSpace[]> {
  return page.evaluate(() => {
    const root = document.querySelector('wallery-wall')!.shadowRoot!;
    const out: { id: string; height: number; empty: number }[] = [];
    for (const card of root.querySelectorAll<HTMLElement>('article.post')) {
      if (card.closest('li.off')) continue;
      const box = card.getBoundingClientRect();
      if (box.height === 0) continue;
      const spans: [number, number][] = [];
      const add = (r: DOMRect, clip: DOMRect) => {
        if (r.width === 0 || r.height === 0) return;
        const top = Math.max(r.top, box.top, clip.top);
        const bottom = Math.min(r.bottom, box.bottom, clip.bottom);
        if (bottom > top) spans.push([top, bottom]);
      };
      for (const el of card.querySelectorAll('img, video, svg, .facade, .flag, .net, .avatar, button, .cta, .count')) {
        if (el.closest('.sr')) continue;
        add(el.getBoundingClientRect(), box);
      }
      const walker = document.createTreeWalker(card, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const parent = node.parentElement!;
        if (!node.textContent?.trim() || parent.closest('.sr')) continue;
        const clip = (parent.closest('.text') ?? card).getBoundingClientRect();
        const range = document.createRange();
        range.selectNodeContents(node);
        for (const r of range.getClientRects()) add(r, clip);
      }
      spans.sort((a, b) => a[0] - b[0]);
      const spacing = 1.6 * parseFloat(getComputedStyle(card).fontSize);
      let empty = 0;
      let reached = box.top;
      for (const [top, bottom] of spans) {
        if (top - reached > spacing) empty += top - reached;
        reached = Math.max(reached, bottom);
      }
      if (box.bottom - reached > spacing) empty += box.bottom - reached;
      out.push({ id: card.dataset.postId!, height: box.height, empty });
    }
    return out;
  });
}

/** Elements of the wall that reach past the viewport's right edge (a scrolling track's own cards aside). */
export function overflowing(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const out: string[] = [];
    if (document.documentElement.scrollWidth > width + 1) out.push(`the page: ${document.documentElement.scrollWidth}`);
    const root = document.querySelector('wallery-wall')!.shadowRoot!;
    for (const el of root.querySelectorAll<HTMLElement>('*')) {
      // the carousel's track and a post's slides scroll sideways by design: what is inside them may be off screen
      if (el.closest('.carousel .posts > li, .slides > *') || el.closest('.sr')) continue;
      const r = el.getBoundingClientRect();
      if (r.width > 0 && r.right > width + 1)
        out.push(`${el.tagName.toLowerCase()}.${el.className}: ${Math.round(r.right)}`);
    }
    return out;
  });
}

/** How many columns the posts are in (distinct left edges of the cards shown). */
export function columnCount(page: Page): Promise<number> {
  return page.evaluate(() => {
    const root = document.querySelector('wallery-wall')!.shadowRoot!;
    const lefts = new Set(
      [...root.querySelectorAll<HTMLElement>('.posts > li:not(.off)')].map((li) =>
        Math.round(li.getBoundingClientRect().left),
      ),
    );
    return lefts.size;
  });
}

/** The look's screens: a phone, a tablet, a laptop and a 1080p screen (every layout), then 4K and portrait (the event screen). */
export const LOOK_VIEWPORTS = [
  { width: 375, height: 812 },
  { width: 768, height: 1024 },
  { width: 1280, height: 800 },
  { width: 1920, height: 1080 },
] as const;
export const LOOK_EVENT_ONLY = [
  { width: 3840, height: 2160 },
  { width: 1080, height: 1920 },
] as const;
export const LOOK_THEMES = ['light', 'dark'] as const;

/** What is wrong with the wall on `page` now: a card more than 25 % empty, an element past the viewport's edge. */
export async function lookProblems(page: Page, where: string): Promise<string[]> {
  const problems: string[] = [];
  for (const card of await cardSpaces(page))
    if (card.empty > 0.25 * card.height)
      problems.push(
        `${where}: post ${card.id} is ${Math.round((100 * card.empty) / card.height)} % empty (${Math.round(card.empty)} of ${Math.round(card.height)} px)`,
      );
  for (const o of await overflowing(page)) problems.push(`${where}: overflows ${o}`);
  return problems;
}
