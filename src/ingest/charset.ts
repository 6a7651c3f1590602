// Character encodings by the labels documents give them (an HTTP `charset`,
// an XML declaration, a MIME type's parameter), decoded with iconv-lite.
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

export const isUtf8Encoding = (name: string | null) => name === 'utf-8' || name === 'utf8';

/** Bytes → text in an encoding encodingOfLabel named (a byte order mark dropped). */
export function decodeBytes(bytes: Buffer, encoding: string): string {
  return iconv.decode(bytes, encoding);
}
