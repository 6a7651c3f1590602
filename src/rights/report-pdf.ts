// The rights evidence report as a PDF for the legal team (issue 36): the
// same report as the JSON and the CSV (src/manage/rights.ts rightsReport),
// laid out to be read and filed. A title with the account, its brand and the
// period the requests span, when it was generated, the counts by state, then
// one block per post: its state spelled out (declined, revoked and expired
// ones marked as not cleared), network, author, the post's link, the request
// (text, link, time, method, who asked) and the answer (text, link, time, who
// decided). Times in UTC; links are clickable; page numbers in the footer.
//
// Text: pdfkit's built-in Helvetica only draws WinAnsi (Latin-1 and a few
// more), and the authors' names and texts may be in any script or hold
// emoji. Their words are drawn with DejaVu Sans (the dejavu-fonts-ttf
// package: Latin with every accent, Greek, Cyrillic, Armenian, Georgian,
// Hebrew, basic Arabic; subset into the PDF), or the operator's font when
// one is given (RIGHTS_REPORT_FONT, a TTF or OTF file: one with CJK for
// authors who write in it); the labels stay Helvetica. A character the font
// cannot draw comes out as "?" — visibly, never silently dropped or drawn as
// garbage. The JSON and the CSV keep every character.
//
// Deterministic: the same report (and font) gives the same bytes — the
// document's CreationDate is the report's generatedAt, nothing else varies.
import { access, constants } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { ConfigError } from '../config.js';
import { RIGHTS_STATES, type RightsState } from '../domain/rights.js';
import type { RightsReport, RightsReportRow } from '../schemas/rights.js';

/** What the report is about, beside its rows: said in the title. */
export interface ReportHeading {
  accountName: string;
  /** the brand the requests name (the account's rights settings); null when it has none of its own */
  brand: string | null;
  /** the wall the report is filtered to, null: every wall */
  wall: { id: number; name: string } | null;
  /** the state the report is filtered to, null: every state */
  state: RightsState | null;
}

export interface ReportPdfOptions {
  /** the path of a TTF or OTF font for the authors' words (RIGHTS_REPORT_FONT); none: DejaVu Sans (DEFAULT_WORDS_FONT) */
  fontPath?: string | null;
}

/** DejaVu Sans, found in its package beside the modules (the server's bundle too: node_modules at run time). */
export const DEFAULT_WORDS_FONT = createRequire(import.meta.url).resolve('dejavu-fonts-ttf/ttf/DejaVuSans.ttf');

/**
 * RIGHTS_REPORT_FONT checked where it will be used (the server's start, the
 * CLI's report): a file that cannot be read, or is no font pdfkit can draw
 * with, stops the start in words rather than failing every PDF later.
 */
export async function checkReportFont(path: string | null): Promise<void> {
  if (path === null) return;
  try {
    await access(path, constants.R_OK);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? 'unreadable';
    throw new ConfigError(`RIGHTS_REPORT_FONT: cannot read ${path} (${code})`);
  }
  try {
    new (await pdfkit())({ autoFirstPage: false }).font(path);
  } catch (err) {
    throw new ConfigError(
      `RIGHTS_REPORT_FONT: ${path} is not a font the PDF can draw with (${(err as Error).message})`,
    );
  }
}

/**
 * pdfkit, loaded when a PDF is made: it takes a fifth of a second to load,
 * and every CLI command and server start would pay it otherwise.
 */
const pdfkit = async () => (await import('pdfkit')).default;

const MARGIN = 50;
const YIELD_EVERY = 25;
const LABEL_WIDTH = 105;
const GREY = '#555555';
const LINK_BLUE = '#1a4fa0';
const BORDER = '#c8c8c8';

/** Each state as the legal team reads it: a word, what it means for using the post, and a colour. */
const STATE_MARKS: Record<RightsState, { word: string; meaning: string; color: string }> = {
  granted: { word: 'GRANTED', meaning: 'cleared: the author agreed', color: '#1b6e2a' },
  requested: { word: 'REQUESTED', meaning: 'not cleared: waiting for the author', color: '#7a5b00' },
  declined: { word: 'DECLINED', meaning: 'NOT CLEARED: the author said no', color: '#b00020' },
  revoked: { word: 'REVOKED', meaning: 'NOT CLEARED: the grant was taken back', color: '#b00020' },
  expired: { word: 'EXPIRED', meaning: 'not cleared: no answer in time', color: GREY },
};

const METHOD_WORDS = { reply: 'by a reply on the network', manual: 'by hand' } as const;

/** Who decided, with the words the evidence uses explained (docs/guides/rights.md). */
function deciderWords(decidedBy: string): string {
  if (decidedBy === '') return '—';
  if (decidedBy === 'reply') return 'reply (the author’s answer on the network, read by Wallery)';
  if (decidedBy === 'watcher') return 'watcher (Wallery, when the grant changed upstream)';
  return decidedBy;
}

/** `2026-03-01 09:00:05 UTC` */
export function utcTime(iso: string): string {
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)} UTC`;
}

// WinAnsi beyond Latin-1: the code points of 0x80–0x9F (pdfkit's map)
const WIN_ANSI_EXTRA = new Set([
  0x152, 0x153, 0x160, 0x161, 0x178, 0x17d, 0x17e, 0x192, 0x2c6, 0x2dc, 0x2013, 0x2014, 0x2018, 0x2019, 0x201a, 0x201c,
  0x201d, 0x201e, 0x2020, 0x2021, 0x2022, 0x2026, 0x2030, 0x2039, 0x203a, 0x20ac, 0x2122,
]);
const inWinAnsi = (cp: number) => (cp >= 0x20 && cp <= 0x7e) || (cp >= 0xa0 && cp <= 0xff) || WIN_ANSI_EXTRA.has(cp);

const graphemes = new Intl.Segmenter('en', { granularity: 'grapheme' });

/**
 * The text as the font can draw it: each character (a grapheme: an emoji
 * with its modifiers, a letter with its accents) the font has no glyph for
 * becomes one "?"; line breaks stay, other control characters become spaces.
 */
export function drawableText(text: string, canDraw: (codePoint: number) => boolean = inWinAnsi): string {
  if (allDrawable(text, canDraw)) return text; // most texts: no grapheme segmenting needed
  let out = '';
  for (const { segment } of graphemes.segment(text.normalize('NFC'))) {
    if (segment === '\n' || segment === '\r\n') out += '\n';
    else if (/^[\u0000-\u001f\u007f-\u009f]$/.test(segment)) out += ' ';
    else out += [...segment].every((c) => canDraw(c.codePointAt(0)!)) ? segment : '?';
  }
  return out;
}

function allDrawable(text: string, canDraw: (codePoint: number) => boolean): boolean {
  for (const c of text) {
    const cp = c.codePointAt(0)!;
    if (cp !== 0x0a && !canDraw(cp)) return false;
  }
  return text.normalize('NFC') === text;
}

const isWebLink = (url: string) => /^https?:\/\//i.test(url);

/** The period the report's requests span, by day (UTC). */
function periodOf(rows: readonly RightsReportRow[]): string {
  if (rows.length === 0) return 'no requests';
  const days = rows.map((r) => r.requestedAt.slice(0, 10)).sort();
  const [first, last] = [days[0]!, days[days.length - 1]!];
  return first === last ? `requests of ${first}` : `requests from ${first} to ${last}`;
}

type Cell = string | PDFKit.Mixins.CellOptions;

/** The report as a PDF (A4). */
export async function rightsReportPdf(
  report: RightsReport,
  heading: ReportHeading,
  options: ReportPdfOptions = {},
): Promise<Buffer> {
  const PDFDocument = await pdfkit();
  const doc = new PDFDocument({
    size: 'A4',
    margin: MARGIN,
    bufferPages: true, // the footer's "page n of m" is written once every page exists
    info: {
      Title: `Rights evidence report — ${heading.accountName}`,
      Author: 'Wallery',
      Subject: `Account ${report.accountId}: ${periodOf(report.rows)}`,
      CreationDate: new Date(report.generatedAt),
    },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const ended = new Promise<void>((resolve, reject) => {
    doc.on('end', resolve);
    doc.on('error', reject);
  });

  // The authors' words: the operator's font when given, else DejaVu Sans — what it has glyphs for.
  // Named by its path, not loaded into a Buffer nor registered under an alias: pdfkit caches a font by the
  // string it was opened with, and its tables switch fonts back and forth for every cell (parsed again
  // each time otherwise: 1.5 s of 2 for 500 posts).
  const data = options.fontPath ?? DEFAULT_WORDS_FONT;
  doc.font(data);
  // pdfkit keeps the loaded font (fontkit's) on a private field: its glyph table says what it can draw
  const loaded = (doc as unknown as { _font: { font?: { hasGlyphForCodePoint(cp: number): boolean } } })._font.font;
  const canDraw = loaded ? (cp: number) => loaded.hasGlyphForCodePoint(cp) : inWinAnsi;
  const words = (text: string) => drawableText(text, canDraw);
  const width = doc.page.width - 2 * MARGIN;

  // ---------- the title ----------
  doc.font('Helvetica-Bold').fontSize(18).text('Rights evidence report');
  doc.moveDown(0.3);
  doc
    .font(data)
    .fontSize(13)
    .text(words(heading.accountName + (heading.brand ? ` — brand: ${heading.brand}` : '')));
  doc.moveDown(0.3);
  const scope = [
    `Account ${report.accountId}`,
    heading.wall ? `wall ${heading.wall.id}${heading.wall.name ? ` (${heading.wall.name})` : ''}` : 'every wall',
    heading.state ? `only ${heading.state}` : 'every state',
  ].join(' · ');
  doc.fontSize(10).fillColor(GREY).text(words(scope));
  doc.font('Helvetica').text(`Period: ${periodOf(report.rows)} (UTC)`);
  doc.text(`Generated ${utcTime(report.generatedAt)} by Wallery`);
  doc.fillColor('black').moveDown(1);

  // ---------- the summary ----------
  doc.font('Helvetica-Bold').fontSize(12).text('Summary');
  doc.moveDown(0.3);
  const counts = new Map<RightsState, number>(RIGHTS_STATES.map((s) => [s, 0]));
  for (const r of report.rows) counts.set(r.state, (counts.get(r.state) ?? 0) + 1);
  doc.font('Helvetica').fontSize(10);
  doc.table({
    columnStyles: [110, 60, '*'],
    defaultStyle: { border: 0.5, borderColor: BORDER, padding: 4 },
    data: [
      ...RIGHTS_STATES.map((s): Cell[] => [
        { text: STATE_MARKS[s].word, textColor: STATE_MARKS[s].color, font: { src: 'Helvetica-Bold' } },
        { text: String(counts.get(s)), align: { x: 'right' } },
        STATE_MARKS[s].meaning,
      ]),
      [
        { text: 'Total', font: { src: 'Helvetica-Bold' } },
        { text: String(report.rows.length), align: { x: 'right' }, font: { src: 'Helvetica-Bold' } },
        'posts asked about',
      ],
    ],
  });
  doc.moveDown(1);

  // ---------- one block per post ----------
  doc.font('Helvetica-Bold').fontSize(12).text('Posts', MARGIN);
  doc.font('Helvetica').fontSize(9).fillColor(GREY).text('Oldest request first.').fillColor('black');
  doc.moveDown(0.5);
  for (const [i, row] of report.rows.entries()) {
    // drawing is synchronous (about 2 ms a post): a long report lets the server's other requests through
    if (i > 0 && i % YIELD_EVERY === 0) await new Promise((resolve) => setImmediate(resolve));
    // a post's heading never ends a page alone
    if (doc.y > doc.page.height - MARGIN - 140) doc.addPage();
    const mark = STATE_MARKS[row.state];
    doc
      .font('Helvetica-Bold')
      .fontSize(11)
      .fillColor('black')
      .text(`Post ${row.postId} · wall ${row.wallId} · `, MARGIN, doc.y, { continued: true, width })
      .fillColor(mark.color)
      .text(`${mark.word} — ${mark.meaning}`)
      .fillColor('black');
    doc.moveDown(0.2);
    doc.font(data).fontSize(9);
    doc.table({
      columnStyles: [LABEL_WIDTH, '*'],
      defaultStyle: { border: 0.5, borderColor: BORDER, padding: 3 },
      data: postRows(row, words),
    });
    doc.moveDown(0.8);
  }

  // ---------- the footer: page n of m ----------
  const { start, count } = doc.bufferedPageRange();
  for (let i = start; i < start + count; i++) {
    doc.switchToPage(i);
    const bottom = doc.page.margins.bottom;
    doc.page.margins.bottom = 0; // writing below the margin must not start a new page
    doc
      .font('Helvetica')
      .fontSize(8)
      .fillColor(GREY)
      .text(
        `Rights evidence report · account ${report.accountId} · generated ${utcTime(report.generatedAt)} · page ${i + 1} of ${count}`,
        MARGIN,
        doc.page.height - MARGIN + 15,
        { width, align: 'center', lineBreak: false },
      );
    doc.page.margins.bottom = bottom;
  }
  doc.end();
  await ended;
  return Buffer.concat(chunks);
}

/** A post's evidence as label/value rows; links clickable, the authors' words through the font's filter. */
function postRows(row: RightsReportRow, words: (text: string) => string): Cell[][] {
  const label = (text: string): Cell => ({ text, font: { src: 'Helvetica-Bold' }, textColor: GREY });
  const link = (url: string, missing: string): Cell =>
    url === ''
      ? { text: missing, textColor: GREY }
      : isWebLink(url)
        ? { text: words(url), textColor: LINK_BLUE, textOptions: { link: url, underline: true } }
        : words(url);
  const text = (value: string, missing: string): Cell =>
    value.trim() === '' ? { text: missing, textColor: GREY } : words(value);
  const author = row.authorName && row.authorName !== row.author ? `${row.authorName} (${row.author})` : row.author;
  return [
    [label('Network'), words(row.network)],
    [label('Author'), words(author)],
    [label('Post'), link(row.postUrl, '— (no link)')],
    [label('Asked'), `${utcTime(row.requestedAt)}, ${METHOD_WORDS[row.method]}, by ${words(row.requestedBy)}`],
    [label('Request text'), text(row.requestText, '—')],
    [label('Request link'), link(row.requestUrl, row.method === 'manual' ? '— (asked by hand)' : '—')],
    [label('Answered'), row.answeredAt ? utcTime(row.answeredAt) : { text: 'no answer yet', textColor: GREY }],
    [label('Answer text'), text(row.answerText, '—')],
    [label('Answer link'), link(row.answerUrl, '—')],
    [label('Decided by'), deciderWords(words(row.decidedBy))],
    ...(row.note.trim() !== '' ? [[label('Note'), words(row.note)]] : []),
  ];
}
