// Character encodings by the labels documents give them (an HTTP `charset`,
// an XML declaration, a MIME type's parameter), decoded with iconv-lite, and
// the encoding of a fetched body (what it declares, else a guess).
import { isUtf8 } from 'node:buffer';
import * as chardet from 'chardet';
import iconv from 'iconv-lite';

/**
 * The encoding a charset label names, as iconv-lite decodes it, or null.
 * Labels are read as the WHATWG Encoding Standard reads them — browsers'
 * table, through TextDecoder: `ISO-8859-1` and `us-ascii` are windows-1252
 * (feeds that say Latin-1 use its curly quotes and dashes), `TIS-620` is
 * windows-874, `x-sjis` Shift_JIS. A label the standard does not know is
 * tried on iconv-lite itself, also without an `x-` prefix (`x-mac-thai`,
 * `x-tis620`).
 */
export function encodingOfLabel(label: string | undefined | null): string | null {
  const name = label?.trim().toLowerCase() ?? '';
  if (name === '') return null;
  let web: string | null = null;
  try {
    web = new TextDecoder(name).encoding;
  } catch {
    // not a label of the standard (or one it decodes as "replacement")
  }
  for (const candidate of [web, name, name.replace(/^x-/, '')])
    if (candidate && iconv.encodingExists(candidate)) return candidate;
  return null;
}

const isUtf8Encoding = (name: string | null) => name === 'utf-8' || name === 'utf8';

/** Bytes → text in an encoding encodingOfLabel named (a byte order mark dropped). */
export function decodeBytes(bytes: Buffer, encoding: string): string {
  return iconv.decode(bytes, encoding);
}

// ---------- the encoding of a body ----------

/** Bytes read to guess the encoding of a body that declares none and is not UTF-8. */
const DETECT_BYTES = 64 * 1024;

const XML_DECLARED = /^\s*<\?xml[^>]*?\bencoding\s*=\s*["']([\w.:-]+)["']/i;
const HTTP_DECLARED = /charset\s*=\s*"?([\w.:-]+)"?/i;

/**
 * The encoding of a body, in this order: its byte order mark; what is
 * declared — the HTTP charset, then the XML declaration — the first that
 * names an encoding iconv-lite decodes (labels read as browsers read them,
 * encodingOfLabel: `TIS-620` is windows-874), a UTF-8 one only if the bytes are
 * UTF-8 and a UTF-16 one never without a byte order mark; then, for bytes
 * that declare nothing usable, UTF-8 if they are valid UTF-8, else what
 * chardet detects (windows-1252 if it cannot tell). Declared encodings come
 * before any guess: chardet cannot name many legacy ones (TIS-620 among
 * them) and would make mojibake of them. One exception: an XML declaration
 * of UTF-8 that the bytes are beats an HTTP charset of another encoding
 * (a server's default charset, not what the file was written in).
 */
export function bodyEncoding(buf: Buffer, contentType: string | undefined): string {
  if (buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf) return 'utf-8';
  if (buf[0] === 0xfe && buf[1] === 0xff) return 'utf-16be';
  if (buf[0] === 0xff && buf[1] === 0xfe) return 'utf-16le';
  const head = buf.subarray(0, 1024).toString('latin1');
  const http = encodingOfLabel(HTTP_DECLARED.exec(contentType ?? '')?.[1]);
  const xml = encodingOfLabel(XML_DECLARED.exec(head)?.[1]);
  const utf8 = isUtf8(buf);
  if (isUtf8Encoding(xml) && utf8) return 'utf-8';
  for (const declared of [http, xml]) {
    if (declared === null || declared.startsWith('utf-16') || (isUtf8Encoding(declared) && !utf8)) continue;
    return declared;
  }
  if (utf8) return 'utf-8';
  const guess = chardet.detect(buf.subarray(0, DETECT_BYTES));
  return encodingOfLabel(guess) ?? 'windows-1252';
}

/** A body → text, in the encoding bodyEncoding finds (decoded by iconv-lite; a byte order mark dropped). */
export function decodeBody(buf: Buffer, contentType: string | undefined): string {
  return decodeBytes(buf, bodyEncoding(buf, contentType));
}
