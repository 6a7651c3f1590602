// The rights evidence report as a PDF (src/rights/report-pdf.ts), from a
// report object to bytes and read back with pdfjs: the title, the period and
// the counts by state, each post's evidence with its links as annotations,
// declined and revoked posts marked as not cleared, page numbers, the same
// bytes for the same report, and the authors' words in any script: "?" for
// what Helvetica cannot draw, the characters themselves with a font that has them.
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/config.js';
import type { RightsState } from '../../src/domain/rights.js';
import {
  checkReportFont,
  drawableText,
  rightsReportPdf,
  utcTime,
  type ReportHeading,
} from '../../src/rights/report-pdf.js';
import type { RightsReport, RightsReportRow } from '../../src/schemas/rights.js';
import { readPdf } from '../helpers/pdf.js';

// a TrueType font the test can count on (pdfjs-dist's, a dev dependency): Latin, Greek, Cyrillic, no CJK
const LIBERATION = fileURLToPath(
  new URL('../../node_modules/pdfjs-dist/standard_fonts/LiberationSans-Regular.ttf', import.meta.url),
);

const HEADING: ReportHeading = { accountName: 'Harbor Coffee', brand: 'Harbor', wall: null, state: null };
const STATES: RightsState[] = ['granted', 'declined', 'revoked', 'requested', 'expired'];

function row(i: number, state: RightsState, change: Partial<RightsReportRow> = {}): RightsReportRow {
  const answered = state !== 'requested' && state !== 'expired';
  return {
    postId: 17000 + i,
    wallId: 7014,
    network: 'Mastodon',
    author: `mastodon:author${i}@harbor.social`,
    authorName: `Author ${i}`,
    postUrl: `https://harbor.social/@author${i}/${100 + i}`,
    state,
    method: 'reply',
    requestedAt: new Date(Date.UTC(2026, 2, 1 + (i % 28), 9, 30, i % 60)).toISOString(),
    requestedBy: 'social-team',
    requestUrl: `https://harbor.social/@brand/${500 + i}`,
    requestText: `Hi @author${i}! May we show this post on our site? Reply #YesPlease to agree.`,
    answeredAt: answered ? new Date(Date.UTC(2026, 2, 2 + (i % 28), 17, 5, 0)).toISOString() : null,
    answerUrl: answered ? `https://harbor.social/@author${i}/${900 + i}` : '',
    answerText: answered ? (state === 'declined' ? 'no thanks' : '#YesPlease sure!') : '',
    decidedBy: answered ? 'reply' : '',
    note: '',
    ...change,
  };
}

const reportOf = (rows: RightsReportRow[]): RightsReport => ({
  accountId: 7003,
  generatedAt: '2026-04-01T08:00:00.000Z',
  rows,
});

describe('the rights evidence report as a PDF', () => {
  it('holds the title, period, counts by state and each post’s evidence; links are annotations', async () => {
    const rows = STATES.map((s, i) => row(i, s));
    const bytes = await rightsReportPdf(reportOf(rows), HEADING);
    expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const pdf = await readPdf(bytes);
    expect(pdf.info).toMatchObject({
      Title: 'Rights evidence report — Harbor Coffee',
      Author: 'Wallery',
      CreationDate: 'D:20260401080000Z',
    });
    const text = pdf.pages.join(' ');
    expect(text).toContain('Harbor Coffee — brand: Harbor');
    expect(text).toContain('Account 7003 · every wall · every state');
    expect(text).toContain('Period: requests from 2026-03-01 to 2026-03-05 (UTC)');
    expect(text).toContain('Generated 2026-04-01 08:00:00 UTC by Wallery');
    for (const s of STATES) expect(text).toMatch(new RegExp(`${s.toUpperCase()} 1 `));
    expect(text).toContain('Total 5 posts asked about');
    expect(text).toContain('DECLINED — NOT CLEARED: the author said no');
    expect(text).toContain('REVOKED — NOT CLEARED: the grant was taken back');
    for (const r of rows) {
      expect(text).toContain(`Post ${r.postId} · wall 7014`);
      expect(text).toContain(`Asked ${utcTime(r.requestedAt)}, by a reply on the network, by social-team`);
      expect(text).toContain(r.requestText);
      if (r.answeredAt) expect(text).toContain(`Answered ${utcTime(r.answeredAt)}`);
    }
    expect(text).toContain('Answered no answer yet');
    expect(text).toContain('reply (the author’s answer on the network, read by Wallery)');
    // every link, in order: the post, the request, the answer (when there is one)
    expect(pdf.links).toEqual(rows.flatMap((r) => [r.postUrl, r.requestUrl, ...(r.answerUrl ? [r.answerUrl] : [])]));
  });

  it('a link that is not http(s) is text, not an annotation; a request by hand says so', async () => {
    const bytes = await rightsReportPdf(
      reportOf([row(1, 'granted', { method: 'manual', requestUrl: '', answerUrl: 'javascript:alert(1)' })]),
      { ...HEADING, wall: { id: 7014, name: 'Lobby' }, state: 'granted' },
    );
    const pdf = await readPdf(bytes);
    const text = pdf.pages.join(' ');
    expect(text).toContain('Account 7003 · wall 7014 (Lobby) · only granted');
    expect(text).toContain('Request link — (asked by hand)');
    expect(text).toContain('Answer link javascript:alert(1)');
    expect(pdf.links).toEqual([row(1, 'granted').postUrl]);
  });

  it('many posts: several pages, each numbered in its footer; the same report gives the same bytes', async () => {
    const report = reportOf(Array.from({ length: 40 }, (_, i) => row(i, STATES[i % STATES.length]!)));
    const bytes = await rightsReportPdf(report, HEADING);
    const pdf = await readPdf(bytes);
    expect(pdf.pages.length).toBeGreaterThan(1);
    pdf.pages.forEach((page, i) => expect(page).toContain(`page ${i + 1} of ${pdf.pages.length}`));
    expect(pdf.links).toHaveLength(40 + 40 + 24);
    expect((await rightsReportPdf(report, HEADING)).equals(bytes)).toBe(true);
  });

  it('DejaVu Sans by default: every accent, Greek, Cyrillic; the heart too; what it cannot draw is "?" (an emoji with its modifier is one)', async () => {
    const name = 'Żaneta 李 👍🏽 Ærø Ελένη';
    const report = reportOf([row(1, 'granted', { authorName: name, answerText: '#YesPlease ❤️ Дякую' })]);
    const plain = (await readPdf(await rightsReportPdf(report, HEADING))).pages.join(' ');
    expect(plain).toContain('Żaneta ? ? Ærø Ελένη (mastodon:author1@harbor.social)');
    expect(plain).toContain('#YesPlease ❤️ Дякую');

    // Liberation Sans has Latin Extended and Cyrillic, not CJK nor emoji
    const withFont = (await readPdf(await rightsReportPdf(report, HEADING, { fontPath: LIBERATION }))).pages.join(' ');
    expect(withFont).toContain('Żaneta ? ? Ærø Ελένη (mastodon:author1@harbor.social)');
    expect(withFont).toContain('#YesPlease ? Дякую');
  });

  it('RIGHTS_REPORT_FONT is checked before use: a file that cannot be read, or is no font, is refused in words', async () => {
    await expect(checkReportFont(null)).resolves.toBeUndefined();
    await expect(checkReportFont(LIBERATION)).resolves.toBeUndefined();
    await expect(checkReportFont('/nowhere/font.ttf')).rejects.toThrow(
      new ConfigError('RIGHTS_REPORT_FONT: cannot read /nowhere/font.ttf (ENOENT)'),
    );
    const notAFont = fileURLToPath(new URL('../../package.json', import.meta.url));
    await expect(checkReportFont(notAFont)).rejects.toThrow(
      expect.objectContaining({
        name: 'ConfigError',
        message: expect.stringMatching(/^RIGHTS_REPORT_FONT: .*package\.json is not a font the PDF can draw with \(/),
      }),
    );
  });

  it('drawableText: line breaks kept, control characters spaced, decomposed letters composed first', () => {
    expect(drawableText('a\nb\tc')).toBe('a\nb c');
    // "é" as e + combining acute is drawn as the one Latin-1 letter
    expect(drawableText('Cafe\u0301')).toBe('Café');
    expect(drawableText('👨‍👩‍👧 family')).toBe('? family');
  });
});
