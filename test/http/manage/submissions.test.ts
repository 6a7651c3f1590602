// A wall's submission page through the management API: off by default with
// its public URL; a change of the consent text takes the next version (and
// each upload keeps its own); bad fields named at once, an unknown wall 404;
// the audit log without the challenges' key; while it is on, the embed API
// points the event screen's QR code at the page and the printable poster's
// QR code (rendered, then decoded) reads the page's URL; off again, both go.
import jsqr from 'jsqr';
import sharp from 'sharp';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { call } from '../../helpers/http.js';
import { describeSample } from '../../helpers/sample.js';
import { data, failure, fields, startManageServer, type ManageServer } from './helpers.js';

interface Submission {
  wallId: number;
  enabled: boolean;
  title: string | null;
  terms: string;
  consentText: string;
  consentVersion: number;
  moderation: string;
  language: string;
  maxBytes: number;
  perIpPerHour: number;
  perWallPerMinute: number;
  url: string;
  posterUrl: string;
}

/** The QR code in an SVG, rendered as a person's scanner would see it. */
async function decodeSvgQr(svg: string): Promise<string | null> {
  const { data: pixels, info } = await sharp(Buffer.from(svg), { density: 150 })
    .flatten({ background: '#ffffff' })
    .ensureAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return jsQR(new Uint8ClampedArray(pixels), info.width, info.height)?.data ?? null;
}

// jsqr is CommonJS: its default import is the function at run time, typed as its module here
const jsQR = jsqr as unknown as typeof jsqr.default;

describeSample('submission page settings', () => {
  let m: ManageServer;
  beforeAll(async () => {
    m = await startManageServer();
  });
  afterAll(async () => m?.close());

  const page = () => `${m.srv.baseUrl}/walls/7011/submit`;

  it('is off by default, with the page’s public URL and poster', async () => {
    const got = data<Submission>(await m.api('GET', '/walls/7011/submission'));
    expect(got).toMatchObject({
      wallId: 7011,
      enabled: false,
      title: null,
      terms: '',
      consentVersion: 1,
      moderation: 'queue',
      language: 'en',
      maxBytes: 15 * 1024 * 1024,
      perIpPerHour: 30,
      perWallPerMinute: 60,
      url: page(),
      posterUrl: `${page()}/poster.svg`,
    });
    expect(got.consentText).toMatch(/I agree/);
    expect((await fetch(got.posterUrl)).status).toBe(404);
    failure(await m.api('GET', '/walls/987654321/submission'), 404);
  });

  it('changes the fields given; a new consent text takes the next version, the same one does not', async () => {
    const on = data<Submission>(
      await m.api('PUT', '/walls/7011/submission', {
        enabled: true,
        terms: 'Be kind.',
        consentText: 'I agree to be on the wall.',
        language: 'de',
      }),
    );
    expect(on).toMatchObject({
      enabled: true,
      terms: 'Be kind.',
      consentVersion: 2,
      language: 'de',
      moderation: 'queue',
    });
    const same = data<Submission>(
      await m.api('PUT', '/walls/7011/submission', { consentText: 'I agree to be on the wall.', title: 'Hallo' }),
    );
    expect(same).toMatchObject({ consentVersion: 2, title: 'Hallo', terms: 'Be kind.', enabled: true });
    expect(data<Submission>(await m.api('GET', '/walls/7011/submission'))).toEqual(same);
    const page = await fetch(same.url);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('I agree to be on the wall.');
    expect(html).toContain('lang="de"');

    const audit = data<{ data: { action: string; summary: { after: unknown } }[] }>(
      await m.api('GET', '/audit?limit=2&targetType=wall'),
    );
    expect(audit.data.map((e) => e.action)).toEqual(['wall.submission.set', 'wall.submission.set']);
    expect(JSON.stringify(audit.data)).not.toMatch(/challengeKey|challenge_key/);
    expect(audit.data[0]!.summary.after).toMatchObject({ title: 'Hallo', consentVersion: 2 });
  });

  it('names every bad field at once, never a 500', async () => {
    // two requests: TypeBox stops after a few errors of one value
    const first = await m.api('PUT', '/walls/7011/submission', {
      enabled: 'yes',
      consentText: '   ',
      title: '',
      extra: 1,
    });
    expect(fields(failure(first, 400)).sort()).toEqual(['consentText', 'enabled', 'extra', 'title']);
    const second = await m.api('PUT', '/walls/7011/submission', {
      moderation: 'later',
      language: 'xx',
      maxBytes: 10,
      perIpPerHour: 0,
      perWallPerMinute: 1.5,
    });
    expect(fields(failure(second, 400)).sort()).toEqual(
      ['language', 'maxBytes', 'moderation', 'perIpPerHour', 'perWallPerMinute'].sort(),
    );
    failure(await m.api('PUT', '/walls/7011/submission', {}), 400);
    failure(await m.api('PUT', '/walls/987654321/submission', { enabled: true }), 404);
  });

  it('while on, the event screen’s QR code and the poster point at the page; off, neither does', async () => {
    data(await m.api('PUT', '/walls/7011/submission', { enabled: true }));
    const made = data<{ key: string }>(await m.api('POST', '/walls/7011/publishable-keys', {}), 201);
    const wall = async () =>
      (await call(m.srv.baseUrl, '/api/embed/v1/walls/7011', { query: { key: made.key } })).json() as unknown as {
        wall: { branding: { infoUrl: string | null } };
      };
    expect((await wall()).wall.branding.infoUrl).toBe(page());

    const poster = await fetch(`${page()}/poster.svg`);
    expect(poster.status).toBe(200);
    expect(poster.headers.get('content-type')).toMatch(/^image\/svg\+xml/);
    expect(poster.headers.get('content-security-policy')).toBe("default-src 'none'");
    const svg = await poster.text();
    expect(svg).not.toMatch(/<script/i);
    expect(await decodeSvgQr(svg)).toBe(page());

    data(await m.api('PUT', '/walls/7011/submission', { enabled: false }));
    expect((await wall()).wall.branding.infoUrl).not.toBe(page());
    expect((await fetch(`${page()}/poster.svg`)).status).toBe(404);
  });
});
