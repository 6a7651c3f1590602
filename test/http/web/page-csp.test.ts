// The hosted page's Content-Security-Policy: with the media pipeline, pictures
// only from this origin, PUBLIC_URL's and the host of the wall's own logo —
// nothing else, and nothing from a logo URL that is not http(s).
import { describe, expect, it } from 'vitest';
import { pageCsp } from '../../../src/http/web/page.js';

const imgSrc = (csp: string) => csp.split('; ').find((d) => d.startsWith('img-src'));

describe('the hosted page’s picture policy', () => {
  it('allows the wall’s logo host next to this origin and PUBLIC_URL’s', () => {
    const csp = pageCsp("'none'", {
      local: true,
      publicUrl: 'https://wall.example.org/base/',
      logoUrl: 'https://cdn.brand.example/logo.svg?v=2',
    });
    expect(imgSrc(csp)).toBe("img-src 'self' https://wall.example.org https://cdn.brand.example data:");
  });

  it('names a host once, and no logo host without a logo', () => {
    expect(
      imgSrc(pageCsp("'none'", { local: true, publicUrl: 'https://a.example', logoUrl: 'https://a.example/l.png' })),
    ).toBe("img-src 'self' https://a.example data:");
    expect(imgSrc(pageCsp("'none'", { local: true, publicUrl: null, logoUrl: null }))).toBe("img-src 'self' data:");
  });

  it('ignores a logo URL that is not http(s)', () => {
    for (const logoUrl of ['javascript:alert(1)', 'data:image/png;base64,AAAA', 'not a url'])
      expect(imgSrc(pageCsp("'none'", { local: true, publicUrl: null, logoUrl }))).toBe("img-src 'self' data:");
  });

  it('without the media pipeline, any https picture host', () => {
    expect(imgSrc(pageCsp("'none'", { local: false }))).toBe("img-src 'self' https: data:");
  });
});
