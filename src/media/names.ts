// Where a picture's files are kept and what they are called: every file of a
// picture lives under its source's hash (`ab/ab12…/master.jpg`,
// `ab/ab12…/640.webp`), so the same picture fetched for two posts is kept
// once, and a name says the file's width and format. Also: which rendition
// format a client gets, from its Accept header. Pure functions.
import Negotiator from 'negotiator';
import type { MasterFormat, MediaFormat, RenditionFormat } from './types.js';

const EXT: Record<MediaFormat, string> = { avif: 'avif', webp: 'webp', jpeg: 'jpg', png: 'png', gif: 'gif' };
const CONTENT_TYPE: Record<MediaFormat, string> = {
  avif: 'image/avif',
  webp: 'image/webp',
  jpeg: 'image/jpeg',
  png: 'image/png',
  gif: 'image/gif',
};
const FORMAT_OF_EXT = new Map(Object.entries(EXT).map(([format, ext]) => [ext, format as MediaFormat]));
const RENDITION_FORMATS: readonly MediaFormat[] = ['avif', 'webp', 'jpeg', 'png'];
const MASTER_FORMATS: readonly MediaFormat[] = ['jpeg', 'png', 'webp', 'gif'];

export const extOf = (format: MediaFormat): string => EXT[format];
export const contentTypeOf = (format: MediaFormat): string => CONTENT_TYPE[format];

/** The format a file name's extension stands for (`master.jpg`: jpeg), or null. */
export function formatOfName(name: string): MediaFormat | null {
  const dot = name.lastIndexOf('.');
  return dot === -1 ? null : (FORMAT_OF_EXT.get(name.slice(dot + 1)) ?? null);
}

/** sha256 in hex, as the pipeline writes it: 64 lower-case hex digits. */
export const isHash = (s: string): boolean => /^[0-9a-f]{64}$/.test(s);

/** The storage key of one of a picture's files: a two-character fan-out folder, then the hash. */
export const mediaKey = (hash: string, name: string): string => `${hash.slice(0, 2)}/${hash}/${name}`;

export const masterName = (format: MasterFormat): string => `master.${extOf(format)}`;

export const renditionName = (width: number, format: RenditionFormat): string => `${width}.${extOf(format)}`;

/** `master.jpg` → jpeg; null for anything that is not a master's name. */
export function parseMasterName(name: string): MasterFormat | null {
  const format = name.startsWith('master.') ? formatOfName(name) : null;
  return format && MASTER_FORMATS.includes(format) && name === masterName(format as MasterFormat)
    ? (format as MasterFormat)
    : null;
}

/**
 * A rendition as a URL names it: `640` (the format negotiated from Accept,
 * `format: null`) or `640.webp` (that format). Null for anything else: a
 * leading zero, another extension, `640.jpeg`, `master.jpg`.
 */
export function parseRenditionName(name: string): { width: number; format: RenditionFormat | null } | null {
  const m = /^([1-9][0-9]{0,4})(?:\.([a-z]+))?$/.exec(name);
  if (!m) return null;
  const width = Number(m[1]);
  if (m[2] === undefined) return { width, format: null };
  const format = FORMAT_OF_EXT.get(m[2]);
  return format && RENDITION_FORMATS.includes(format) ? { width, format: format as RenditionFormat } : null;
}

/**
 * A storage key both storages hold alike: '/'-separated segments, none
 * empty, none starting with '.' (no `..`; and the folder storage's temporary
 * files are dot files), no backslash or control character.
 */
export function isValidKey(key: string): boolean {
  if (key === '' || key.length > 1024 || /[\\\u0000-\u001f\u007f]/.test(key)) return false;
  return key.split('/').every((segment) => segment !== '' && !segment.startsWith('.'));
}

export function assertValidKey(key: string): void {
  if (!isValidKey(key)) throw new Error(`not a valid media storage key: ${JSON.stringify(key)}`);
}

/**
 * The best rendition format the client takes: AVIF when it names
 * `image/avif` and the picture is still (an animation's AVIF would be one
 * frame), else WebP when it names `image/webp`, else JPEG, or PNG for a
 * picture with alpha. Only types the client names count: wildcards (any
 * type, `image/*`) come from clients that decode neither AVIF nor WebP too
 * (curl, older browsers), so they get the format everyone decodes. The
 * response varies by Accept.
 */
export function chooseFormat(
  accept: string | undefined,
  picture: { animated: boolean; hasAlpha: boolean },
): RenditionFormat {
  // negotiator reads the q-values: a type given q=0 is refused, not named
  const named = new Set(new Negotiator({ headers: { accept } }).mediaTypes().map((t) => t.toLowerCase()));
  if (named.has('image/avif') && !picture.animated) return 'avif';
  if (named.has('image/webp')) return 'webp';
  return picture.hasAlpha ? 'png' : 'jpeg';
}
