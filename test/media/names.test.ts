// The layout of media files (src/media/names.ts): keys, names, and which
// rendition format a client gets from its Accept header.
import { describe, expect, it } from 'vitest';
import {
  chooseFormat,
  contentTypeOf,
  extOf,
  formatOfName,
  isHash,
  isValidKey,
  masterName,
  mediaKey,
  parseMasterName,
  parseRenditionName,
  renditionName,
} from '../../src/media/names.js';
import type { RenditionFormat } from '../../src/media/types.js';

const HASH = 'ab12cd34ef56ab12cd34ef56ab12cd34ef56ab12cd34ef56ab12cd34ef56ab12';

describe('keys and names', () => {
  it('a file lives under its hash, in a folder named by the hash’s first two characters', () => {
    expect(mediaKey(HASH, 'master.jpg')).toBe(`ab/${HASH}/master.jpg`);
    expect(isValidKey(mediaKey(HASH, '640.webp'))).toBe(true);
  });

  it('isHash: 64 lower-case hex digits only', () => {
    expect(isHash(HASH)).toBe(true);
    expect(isHash(HASH.toUpperCase())).toBe(false);
    expect(isHash(HASH.slice(1))).toBe(false);
    expect(isHash(`${HASH}0`)).toBe(false);
    expect(isHash(`${HASH.slice(1)}g`)).toBe(false);
    expect(isHash(`../${HASH.slice(3)}`)).toBe(false);
  });

  it('extensions and content types', () => {
    expect(['avif', 'webp', 'jpeg', 'png', 'gif'].map((f) => extOf(f as RenditionFormat))).toEqual([
      'avif',
      'webp',
      'jpg',
      'png',
      'gif',
    ]);
    expect(contentTypeOf('jpeg')).toBe('image/jpeg');
    expect(contentTypeOf('avif')).toBe('image/avif');
    expect(contentTypeOf('gif')).toBe('image/gif');
    expect(formatOfName('640.jpg')).toBe('jpeg');
    expect(formatOfName('master.gif')).toBe('gif');
    expect(formatOfName('640.jpeg')).toBeNull();
    expect(formatOfName('640')).toBeNull();
  });

  it('rendition names round-trip', () => {
    const formats: RenditionFormat[] = ['avif', 'webp', 'jpeg', 'png'];
    for (const width of [1, 320, 640, 1080, 1600, 99999]) {
      for (const format of formats) {
        const name = renditionName(width, format);
        expect(parseRenditionName(name)).toEqual({ width, format });
      }
    }
    expect(renditionName(640, 'jpeg')).toBe('640.jpg');
  });

  it('a bare width asks for the negotiated format', () => {
    expect(parseRenditionName('640')).toEqual({ width: 640, format: null });
    expect(parseRenditionName('640.webp')).toEqual({ width: 640, format: 'webp' });
  });

  it('anything else is not a rendition name', () => {
    for (const name of [
      '',
      '0',
      '0640',
      '-640',
      '640.',
      '640.jpeg',
      '640.gif',
      '640.WEBP',
      '640.webp.webp',
      '640webp',
      'master.jpg',
      '640/../master.jpg',
      '100000',
      '6.4e2',
      ' 640',
      '640.webp\n',
    ]) {
      expect(parseRenditionName(name), JSON.stringify(name)).toBeNull();
    }
  });

  it('master names round-trip; nothing else is one', () => {
    for (const format of ['jpeg', 'png', 'webp', 'gif'] as const) {
      expect(parseMasterName(masterName(format))).toBe(format);
    }
    expect(masterName('jpeg')).toBe('master.jpg');
    for (const name of ['master.avif', 'master.jpeg', 'master', 'master.jpg.webp', 'x.master.jpg', '640.jpg']) {
      expect(parseMasterName(name), name).toBeNull();
    }
  });

  it('valid keys: segments, none empty or starting with a dot, no backslash or control character', () => {
    for (const key of ['a', 'ab/cd/640.webp', 'wallery/media/ab/x.jpg', 'a b/ü.jpg'])
      expect(isValidKey(key), key).toBe(true);
    for (const key of ['', '/a', 'a/', 'a//b', '../a', 'a/../b', './a', 'a/.tmp', 'a\\b', 'a\nb', 'a\u0000b']) {
      expect(isValidKey(key), JSON.stringify(key)).toBe(false);
    }
  });
});

describe('chooseFormat: the best format a client takes', () => {
  // Accept headers browsers send for <img> requests
  const CHROME = 'image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8';
  const FIREFOX = 'image/avif,image/webp,image/png,image/svg+xml,image/*;q=0.8,*/*;q=0.5';
  const SAFARI_17 =
    'image/webp,image/avif,image/jxl,image/heic,image/heic-sequence,video/*;q=0.8,image/png,image/svg+xml,image/*;q=0.8,*/*;q=0.5';
  const SAFARI_13 = 'image/png,image/svg+xml,image/*;q=0.8,video/*;q=0.8,*/*;q=0.5';
  const EDGE_18 = 'image/webp,image/apng,image/*,*/*;q=0.8';
  const CURL = '*/*';
  const still = { animated: false, hasAlpha: false };
  const alpha = { animated: false, hasAlpha: true };
  const animated = { animated: true, hasAlpha: false };

  it('AVIF for browsers that name it', () => {
    for (const accept of [CHROME, FIREFOX, SAFARI_17]) expect(chooseFormat(accept, still), accept).toBe('avif');
    expect(chooseFormat(CHROME, alpha)).toBe('avif');
  });

  it('WebP for an animation (AVIF would be one frame), and for browsers that name WebP only', () => {
    for (const accept of [CHROME, FIREFOX, SAFARI_17, EDGE_18])
      expect(chooseFormat(accept, animated), accept).toBe('webp');
    expect(chooseFormat(EDGE_18, still)).toBe('webp');
  });

  it('JPEG, or PNG with alpha, when neither is named: curl, older Safari, no Accept at all', () => {
    for (const accept of [CURL, SAFARI_13, undefined, '', 'image/*']) {
      expect(chooseFormat(accept, still), String(accept)).toBe('jpeg');
      expect(chooseFormat(accept, alpha), String(accept)).toBe('png');
      expect(chooseFormat(accept, animated), String(accept)).toBe('jpeg');
    }
  });

  it('q=0 refuses a type; case and spaces do not matter', () => {
    expect(chooseFormat('image/avif;q=0, image/webp', still)).toBe('webp');
    expect(chooseFormat('image/avif; q=0, image/webp;q=0, */*', still)).toBe('jpeg');
    expect(chooseFormat('Image/AVIF ,  image/webp', still)).toBe('avif');
    expect(chooseFormat('image/webp;q=0.1', still)).toBe('webp');
  });
});
