// Attendee uploads as people do them, in real Chromium on a real `wallery
// serve` (SQLite, its own media folder): an operator turns the wall's
// submission page on in the console (its link, QR code and poster appear);
// the event screen (1920 × 1080, the hosted page in the event layout) shows
// a QR code that decodes to the page; on a 390 × 844 phone the page's own
// script solves the challenge and sends a JPEG with GPS and a line of text;
// the operator approves it in the console's queue and the event screen
// shows it within 2 s; its stored files carry no GPS; the author deletes it
// with the private link and it leaves the screen. Screenshots:
// docs/screenshots/submit-{390,1280}.png, submit-done-390.png,
// console-submission-1280.png; axe clean on each.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import jsQR from 'jsqr';
import type { Browser, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { startInstance, type Instance } from '../helpers/instances.js';
import { GPS_MARK, orientedJpegWithGps } from '../media/pictures.js';
import { hasChromium, launchChromium, screenshot, seriousAxeFindings } from './browser.js';

const SHOTS = new URL('../../docs/screenshots/', import.meta.url).pathname;
const WAIT = 30_000;
const PHONE = { width: 390, height: 844 };
const LAPTOP = { width: 1280, height: 800 };
const EVENT = { width: 1920, height: 1080 };
const LINE = 'Sunset over the harbour stage 🌅';

/** Every file under `dir`. */
const filesUnder = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });

/** The text the event screen shows (its shadow root's). */
const screenText = (page: Page) =>
  page.evaluate(() => (document.querySelector('wallery-wall')?.shadowRoot?.textContent ?? '').replace(/\s+/g, ' '));

/** The QR code in `svg` (a locator's screenshot), decoded as a scanner would. */
async function decode(png: Buffer): Promise<string | null> {
  const { data, info } = await sharp(png)
    .flatten({ background: '#ffffff' })
    .ensureAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return jsQR(new Uint8ClampedArray(data.buffer, data.byteOffset, data.length), info.width, info.height)?.data ?? null;
}

describe.skipIf(!hasChromium)('attendee uploads from a phone, in Chromium', () => {
  let dir: string;
  let mediaDir: string;
  let instance: Instance;
  let browser: Browser;
  let token = '';
  let wallId = 0;
  let key = '';

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    dir = mkdtempSync(join(tmpdir(), 'wallery-uploads-web-'));
    mediaDir = join(dir, 'media');
    const database = join(dir, 'wallery.db');
    const launching = launchChromium();
    instance = await startInstance({ INGEST: 'off', MEDIA_DIR: mediaDir }, ['serve', '--database', database]);
    const made = await runCli(['tokens', 'create', '--name', 'ops', '--json', '--database', database]);
    expect(made.code, made.stderr).toBe(0);
    token = (JSON.parse(made.stdout) as { token: string }).token;
    const account = await manage('POST', '/accounts', { name: 'Harbour Events', plan: 'enterprise' });
    const wall = await manage('POST', '/walls', { accountId: account.id, name: 'Harbour Fest', url: 'harbour-fest' });
    wallId = wall.id as number;
    await manage('PATCH', `/walls/${wallId}`, { branding: { callToPost: 'Scan to post your photo' } });
    key = (await manage('POST', `/walls/${wallId}/publishable-keys`, {})).key as string;
    browser = await launching;
  });
  afterAll(async () => {
    await browser?.close();
    await instance?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  /** A management API call with the operator token; its responseData. */
  async function manage(method: string, path: string, body?: unknown) {
    const res = await fetch(`${instance.url}/api/manage/v1${path}`, {
      method,
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    expect(res.status, await res.clone().text()).toBeLessThan(300);
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    return ((await res.json()) as { responseData: Record<string, any> }).responseData;
  }

  /** A page that records its script errors. */
  async function pageOf(context: Awaited<ReturnType<Browser['newContext']>>) {
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => {
      if (m.type() === 'error' && !m.text().startsWith('Failed to load resource')) errors.push(m.text());
    });
    return { page, errors };
  }

  it('turned on in the console, posted from a phone by the QR code, approved, shown, deleted by its author', async () => {
    // the operator turns the page on in the wall's settings
    const consoleContext = await browser.newContext({ viewport: LAPTOP, reducedMotion: 'reduce' });
    const { page: ops, errors: opsErrors } = await pageOf(consoleContext);
    await ops.goto(`${instance.url}/console/`);
    await ops.getByLabel('Operator token').fill(token);
    await ops.getByRole('button', { name: 'Sign in' }).click();
    await ops.getByRole('heading', { level: 1, name: 'Home' }).waitFor({ timeout: WAIT });
    await ops.getByRole('link', { name: 'Walls', exact: true }).click();
    await ops.getByRole('button', { name: 'Edit Harbour Fest' }).click();
    const dialog = ops.getByRole('dialog', { name: 'Edit wall' });
    const section = dialog.getByRole('region', { name: 'Submission page' });
    await section.getByText('Its link, QR code and poster appear here').waitFor({ timeout: WAIT });
    await section.getByLabel(/^Take posts from attendees/).check();
    await section.getByLabel('Consent text').fill('I agree that my photo and name are shown on the Harbour Fest wall.');
    await section.getByLabel('Terms').fill('Be kind. Only photos you took or may share.');
    await section.getByRole('button', { name: 'Save submission page' }).click();
    await section
      .getByText(/^Submission page saved: it takes posts \(consent version 2\)\.$/)
      .waitFor({ timeout: WAIT });
    const pageUrl = `${instance.url}/walls/${wallId}/submit`;
    await expect(section.getByLabel('Submission page link').inputValue()).resolves.toBe(pageUrl);
    expect(await decode(await section.getByRole('img', { name: `QR code: ${pageUrl}` }).screenshot())).toBe(pageUrl);
    const poster = await fetch(
      (await section.getByRole('link', { name: 'Download poster (SVG)' }).getAttribute('href')) ?? '',
    );
    expect(poster.status).toBe(200);
    expect(await seriousAxeFindings(ops, 'console, submission page')).toEqual([]);
    // the section whole, on a screen tall enough for the dialog
    await ops.setViewportSize({ width: LAPTOP.width, height: 2400 });
    await screenshot(section, { path: `${SHOTS}console-submission-1280.png` });
    await ops.setViewportSize(LAPTOP);
    await dialog.getByRole('button', { name: 'Cancel' }).click();

    // the event screen, waiting for its first post: its QR code leads to the page
    const eventContext = await browser.newContext({ viewport: EVENT, reducedMotion: 'reduce' });
    const { page: screen, errors: screenErrors } = await pageOf(eventContext);
    await screen.goto(`${instance.url}/walls/${wallId}?key=${key}&layout=event`);
    const qr = screen.locator('wallery-wall .waiting svg.qr');
    await qr.waitFor({ timeout: WAIT });
    const scanned = await decode(await qr.screenshot());
    expect(scanned).toBe(pageUrl);

    // a phone opens what the code says, the page solves its challenge itself, the photo and a line go up
    const phoneContext = await browser.newContext({
      viewport: PHONE,
      deviceScaleFactor: 2,
      isMobile: true,
      hasTouch: true,
      reducedMotion: 'reduce',
    });
    const { page: phone, errors: phoneErrors } = await pageOf(phoneContext);
    await phone.goto(scanned!);
    await phone.getByRole('heading', { level: 1, name: 'Post to the wall' }).waitFor({ timeout: WAIT });
    expect(await phone.evaluate<number>('document.documentElement.scrollWidth')).toBe(PHONE.width);
    expect(await seriousAxeFindings(phone, 'submission page, phone')).toEqual([]);
    await screenshot(phone, { path: `${SHOTS}submit-390.png`, fullPage: true });

    const jpeg = await orientedJpegWithGps(1200, 900);
    expect(jpeg.includes(Buffer.from(GPS_MARK))).toBe(true);
    await phone.locator('#photo').setInputFiles({ name: 'IMG_0042.jpg', mimeType: 'image/jpeg', buffer: jpeg });
    // the page's script shows the chosen photo
    await phone.locator('#preview img[src^="blob:"]').waitFor({ timeout: WAIT });
    await phone.getByText('Change photo').waitFor({ timeout: WAIT });
    await phone.getByLabel('Your message').fill(LINE);
    await phone.getByLabel('Your name').fill('Mara');
    await phone.getByLabel(/^I agree that my photo/).check();
    await phone.getByRole('button', { name: 'Post to the wall' }).click();
    await phone.getByRole('heading', { level: 1, name: 'Thank you!' }).waitFor({ timeout: WAIT });
    await expect(phone.locator('#done-text').innerText()).resolves.toMatch(/with the moderators/);
    const deleteUrl = await phone.getByLabel('Your private delete link').inputValue();
    expect(deleteUrl).toMatch(new RegExp(`^${pageUrl}/delete/[A-Za-z0-9_-]{32,}$`));
    expect(await seriousAxeFindings(phone, 'submission page, done')).toEqual([]);
    await screenshot(phone, { path: `${SHOTS}submit-done-390.png`, fullPage: true });

    // stored without GPS, in every file the media folder holds
    const files = filesUnder(mediaDir);
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) expect(readFileSync(file).includes(Buffer.from(GPS_MARK)), file).toBe(false);

    // approved in the console's queue; the event screen shows it within 2 s
    const pending = (await manage('GET', `/walls/${wallId}/posts?state=pending`)).data as {
      id: number;
      content: string;
      networkName: string;
    }[];
    expect(pending.map((p) => [p.content, p.networkName])).toEqual([[`<p>${LINE}</p>`, 'upload']]);
    await ops.getByRole('link', { name: 'Moderate Harbour Fest' }).click();
    const card = ops.locator(`article[data-post-id="${pending[0]!.id}"]`);
    await card.getByRole('button', { name: 'Approve' }).waitFor({ timeout: WAIT });
    expect(await screenText(screen)).not.toContain(LINE);
    const approvedAt = Date.now();
    await card.getByRole('button', { name: 'Approve' }).click();
    await screen.waitForFunction(
      (line) => (document.querySelector('wallery-wall')?.shadowRoot?.textContent ?? '').includes(line),
      LINE,
      { timeout: WAIT },
    );
    const shownAfter = Date.now() - approvedAt;
    expect(shownAfter, 'ms from Approve to the event screen').toBeLessThanOrEqual(2000);

    // the author deletes it with the private link; it leaves the screen
    await phone.goto(deleteUrl);
    await phone.getByRole('heading', { level: 1, name: 'Delete your post?' }).waitFor({ timeout: WAIT });
    await phone.getByRole('button', { name: 'Delete my post' }).click();
    await phone.getByRole('heading', { level: 1, name: 'Your post is deleted' }).waitFor({ timeout: WAIT });
    expect(await seriousAxeFindings(phone, 'deleted')).toEqual([]);
    await screen.waitForFunction(
      (line) => !(document.querySelector('wallery-wall')?.shadowRoot?.textContent ?? '').includes(line),
      LINE,
      { timeout: WAIT },
    );
    expect(filesUnder(mediaDir)).toEqual([]);

    // the page on a laptop, for the guide
    const laptop = await browser.newContext({ viewport: LAPTOP, reducedMotion: 'reduce' });
    const { page: wide, errors: wideErrors } = await pageOf(laptop);
    await wide.goto(pageUrl);
    await wide.getByRole('heading', { level: 1, name: 'Post to the wall' }).waitFor({ timeout: WAIT });
    expect(await seriousAxeFindings(wide, 'submission page, laptop')).toEqual([]);
    await screenshot(wide, { path: `${SHOTS}submit-1280.png`, fullPage: true });

    expect([...opsErrors, ...screenErrors, ...phoneErrors, ...wideErrors]).toEqual([]);
    console.log(`[uploads-phone] approve → on the event screen: ${shownAfter} ms`);
  });
});
