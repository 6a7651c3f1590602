// The submission page's printable poster: an A4 SVG with the wall's name,
// the page's call to post (in its language), the QR code of the page and its
// URL spelled out for those who type. Every text is escaped; nothing of it
// runs (an SVG with no script, served with a CSP that forbids any).
import { encode } from 'uqr';
import type { UploadWords } from '../../domain/uploads.js';
import { escapeHtml } from '../web/page.js';

/** The quiet zone around the code, in modules (the standard asks for 4). */
const QUIET = 4;

/** The dark modules of `text`'s QR code (level M) as one path, runs of a row as one rectangle each; and its side. */
export function qrPath(text: string): { size: number; path: string } {
  const { data, size } = encode(text, { ecc: 'M', border: 0 });
  let path = '';
  for (let y = 0; y < size; y++) {
    const row = data[y]!;
    for (let x = 0; x < size; x++) {
      if (!row[x]) continue;
      let run = 1;
      while (x + run < size && row[x + run]) run++;
      path += `M${x + QUIET} ${y + QUIET}h${run}v1h-${run}z`;
      x += run - 1;
    }
  }
  return { size: size + 2 * QUIET, path };
}

/** A line no wider than the page at its size: long names are cut with an ellipsis. */
const line = (text: string, max: number) => {
  const chars = [...text.replace(/\s+/g, ' ').trim()];
  return chars.length > max ? `${chars.slice(0, max - 1).join('')}…` : chars.join('');
};

/** The poster (A4 portrait, 210 × 297 user units = mm). */
export function posterSvg(wallName: string, url: string, words: UploadWords, language: string): string {
  const { size, path } = qrPath(url);
  const qrSide = 150;
  const qrX = (210 - qrSide) / 2;
  const name = line(wallName, 34);
  const nameSize = name.length > 24 ? 11 : 14;
  const shown = url.replace(/^https?:\/\//, '');
  const urlSize = shown.length > 48 ? 5 : 7;
  return (
    `<?xml version="1.0" encoding="UTF-8"?>\n` +
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 210 297" width="210mm" height="297mm" lang="${escapeHtml(language)}" font-family="system-ui, -apple-system, 'Segoe UI', Roboto, Helvetica, Arial, sans-serif">` +
    `<title>${escapeHtml(`${name} — ${words.heading}`)}</title>` +
    `<rect width="210" height="297" fill="#ffffff"/>` +
    `<text x="105" y="42" text-anchor="middle" font-size="${nameSize}" font-weight="700" fill="#111111">${escapeHtml(name)}</text>` +
    `<text x="105" y="62" text-anchor="middle" font-size="10" fill="#111111">${escapeHtml(line(words.heading, 40))}</text>` +
    `<text x="105" y="74" text-anchor="middle" font-size="5.5" fill="#333333">${escapeHtml(line(words.intro, 80))}</text>` +
    `<svg x="${qrX}" y="88" width="${qrSide}" height="${qrSide}" viewBox="0 0 ${size} ${size}" shape-rendering="crispEdges">` +
    `<rect width="${size}" height="${size}" fill="#ffffff"/><path d="${path}" fill="#000000"/></svg>` +
    `<text x="105" y="254" text-anchor="middle" font-size="${urlSize}" font-family="ui-monospace, Menlo, Consolas, monospace" fill="#111111">${escapeHtml(shown)}</text>` +
    `<text x="105" y="280" text-anchor="middle" font-size="4" fill="#666666">${escapeHtml(words.poweredBy)}</text>` +
    `</svg>\n`
  );
}
