// What a fetched file really is, from its bytes (file-type reads the
// signatures) — never from its URL's extension or the Content-Type it came
// with, which say what the sender meant, not what arrived: a login page
// saved as `photo.jpg` is HTML.
import { fileTypeFromBuffer } from 'file-type';
import { Parser } from 'htmlparser2';
import type { PictureType } from './types.js';

export type Detection =
  { ok: true; type: PictureType; mime: string } | { ok: false; code: 'not_a_picture' | 'svg'; reason: string };

/** The accepted pictures by the MIME type file-type gives. APNG is read as PNG: its first frame (sharp's PNG decoder reads no animation). */
const ACCEPTED = new Map<string, PictureType>([
  ['image/jpeg', 'jpeg'],
  ['image/png', 'png'],
  ['image/apng', 'png'],
  ['image/gif', 'gif'],
  ['image/webp', 'webp'],
  ['image/avif', 'avif'],
]);

/**
 * Elements that start an HTML document, after WHATWG MIME Sniffing's rules
 * for "text/html" (§7.1): a document starting with one of them is HTML.
 */
const HTML_STARTS = new Set([
  'html',
  'head',
  'body',
  'script',
  'iframe',
  'h1',
  'div',
  'font',
  'table',
  'a',
  'style',
  'title',
  'b',
  'br',
  'p',
  'meta',
  'link',
]);

/** Markup that starts further in than this is not what the file is. */
const SNIFF_BYTES = 64 * 1024;

type Markup = 'svg' | 'html' | 'xml' | null;

/**
 * What a text file that starts with markup is: SVG, HTML or other XML, by
 * its first element (or its doctype), after any BOM, whitespace, comments,
 * XML declaration and doctype. Tokenized by htmlparser2 in XML mode (names
 * as written, processing instructions and doctypes reported).
 */
function markupKind(bytes: Uint8Array): Markup {
  const text = new TextDecoder('utf-8').decode(bytes.subarray(0, SNIFF_BYTES)); // drops a BOM
  if (!text.trimStart().startsWith('<')) return null;
  let kind: Markup = null;
  let done = false;
  const parser = new Parser(
    {
      onprocessinginstruction(name, data) {
        if (done) return;
        const lower = name.toLowerCase();
        if (lower === '?xml') kind = 'xml';
        if (lower === '!doctype') {
          const doctype = data.slice('!doctype'.length).trim().toLowerCase();
          if (doctype.startsWith('svg')) [kind, done] = ['svg', true];
          else if (doctype.startsWith('html')) [kind, done] = ['html', true];
        }
      },
      onopentagname(name) {
        if (done) return;
        done = true;
        // a namespace prefix is the document's own choice: `<svg:svg>` is SVG too
        const local = name.toLowerCase().replace(/^[^:]*:/, '');
        if (local === 'svg') kind = 'svg';
        else if (HTML_STARTS.has(local)) kind = 'html';
        else kind ??= 'xml';
      },
    },
    { xmlMode: true, decodeEntities: false },
  );
  parser.end(text);
  return kind;
}

/**
 * The picture type of a file, or why it is refused: SVG (code `svg`), or
 * anything but a JPEG, PNG, GIF, WebP or AVIF picture (`not_a_picture`),
 * with a sentence naming what the file is.
 */
export async function detectPicture(bytes: Uint8Array): Promise<Detection> {
  if (bytes.byteLength === 0) return { ok: false, code: 'not_a_picture', reason: 'the file is empty, not a picture' };
  const found = await fileTypeFromBuffer(bytes);
  const type = found && ACCEPTED.get(found.mime);
  if (found && type) return { ok: true, type, mime: found.mime };
  // file-type reads binary signatures; text formats are read here (an
  // `<?xml` start it reports as XML, without looking for the root)
  const markup = !found || found.mime === 'application/xml' ? markupKind(bytes) : null;
  // SVG is refused, not rasterized: an SVG document is a program of sorts —
  // it may hold scripts and reference external files (images, fonts, styles,
  // other documents) that a renderer would fetch from wherever they point,
  // past the fetcher's guard — and it rarely is a post's photo
  if (markup === 'svg') return { ok: false, code: 'svg', reason: 'SVG pictures are not accepted' };
  if (markup === 'html') return { ok: false, code: 'not_a_picture', reason: 'the file is HTML, not a picture' };
  if (markup === 'xml') return { ok: false, code: 'not_a_picture', reason: 'the file is XML, not a picture' };
  if (found?.mime.startsWith('image/')) {
    return {
      ok: false,
      code: 'not_a_picture',
      reason: `the file is a picture of a type that is not accepted (${found.mime}): JPEG, PNG, GIF, WebP and AVIF are`,
    };
  }
  const what = found ? found.mime : 'an unknown kind of file';
  return { ok: false, code: 'not_a_picture', reason: `the file is ${what}, not a picture` };
}
