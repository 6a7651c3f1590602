// A wall's branding on its own: colours normalised, the WCAG formula against
// known ratios, the contrast rules (and the defaults a null side takes), the
// merge of a change, reading a stored value back, and properties over
// arbitrary input.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  brandingColumn,
  brandingProblems,
  checkBranding,
  contrastRatio,
  DEFAULT_BRANDING,
  effectiveColors,
  FONT_STACKS,
  FONTS,
  mergeBranding,
  normalizeHex,
  ratioText,
  storedBranding,
  type Branding,
} from '../../src/domain/branding.js';

const brand = (over: Partial<Branding> = {}): Branding => ({ ...DEFAULT_BRANDING, vars: {}, ...over });
const hex = fc
  .tuple(fc.integer({ min: 0, max: 255 }), fc.integer({ min: 0, max: 255 }), fc.integer({ min: 0, max: 255 }))
  .map((c) => `#${c.map((n) => n.toString(16).padStart(2, '0')).join('')}`);

describe('colours', () => {
  it('normalises #rgb and #RRGGBB to lower-case #rrggbb and refuses anything else', () => {
    expect(normalizeHex('#ABC')).toBe('#aabbcc');
    expect(normalizeHex(' #1A2b3C ')).toBe('#1a2b3c');
    for (const bad of ['abc', '#abcd', '#12345g', 'red', '', null, 7, '#1a2b3c00', 'rgb(0,0,0)'])
      expect(normalizeHex(bad)).toBeNull();
  });

  it('computes WCAG 2.x contrast ratios (black on white 21, the same colour 1, known pairs)', () => {
    expect(contrastRatio('#000000', '#ffffff')).toBeCloseTo(21, 5);
    expect(contrastRatio('#777777', '#777777')).toBe(1);
    // WebAIM's checker: #767676 on white is 4.54:1, #777777 on white 4.48:1
    expect(contrastRatio('#767676', '#ffffff')).toBeCloseTo(4.54, 2);
    expect(contrastRatio('#ffffff', '#777777')).toBeCloseTo(4.48, 2);
    // rounded down in messages: 4.499 is not 4.5
    expect(ratioText(4.4999)).toBe('4.49:1');
  });

  it('properties: contrast is symmetric and within 1..21', () => {
    fc.assert(
      fc.property(hex, hex, (a, b) => {
        const r = contrastRatio(a, b);
        expect(r).toBeGreaterThanOrEqual(1);
        expect(r).toBeLessThanOrEqual(21 + 1e-9);
        expect(contrastRatio(b, a)).toBe(r);
      }),
    );
  });
});

describe('checking a written branding', () => {
  it('stores normalised values: colours, URLs, the call to post as one line of plain text, variables', () => {
    const { value, problems } = checkBranding({
      accent: '#E45',
      text: null,
      font: 'serif',
      radius: 0,
      cardStyle: 'outlined',
      logoUrl: ' https://example.org/logo.png ',
      infoUrl: 'https://example.org/post',
      callToPost: '  Post with <b>#harborfest</b>\n now ',
      vars: { '--wallery-gap': '16PX', '--wallery-muted-color': '#555', '--wallery-line-height': '1.50' },
    });
    expect(problems).toEqual([]);
    expect(value).toEqual({
      accent: '#ee4455',
      text: null,
      font: 'serif',
      radius: 0,
      cardStyle: 'outlined',
      logoUrl: 'https://example.org/logo.png',
      infoUrl: 'https://example.org/post',
      callToPost: 'Post with #harborfest now',
      vars: { '--wallery-gap': '16px', '--wallery-muted-color': '#555555', '--wallery-line-height': '1.5' },
    });
  });

  it('names every bad field, and refuses variables that are not allow-listed or raw CSS', () => {
    const { problems } = checkBranding({
      accent: 'red',
      font: 'Comic Sans',
      radius: 33,
      cardStyle: 'glass',
      infoUrl: 'ftp://example.org/',
      logoUrl: 'javascript:alert(1)',
      callToPost: 'x'.repeat(81),
      colour: '#fff',
      vars: {
        '--wallery-accent': '#fff',
        '--evil': '1px',
        '--wallery-gap': '1px; background: url(https://evil.example)',
        '--wallery-font-size': '100px',
      },
    });
    expect(problems.map((p) => p.field).sort()).toEqual(
      [
        'branding.accent',
        'branding.font',
        'branding.radius',
        'branding.cardStyle',
        'branding.infoUrl',
        'branding.logoUrl',
        'branding.callToPost',
        'branding.colour',
        'branding.vars.--wallery-accent',
        'branding.vars.--evil',
        'branding.vars.--wallery-gap',
        'branding.vars.--wallery-font-size',
      ].sort(),
    );
    expect(checkBranding('nope').problems).toEqual([{ field: 'branding', message: 'branding must be an object' }]);
  });

  it('property: never throws, whatever it is given, and what it keeps checks again unchanged', () => {
    fc.assert(
      fc.property(fc.anything(), (input) => {
        const { value } = checkBranding(input);
        const again = checkBranding(value);
        expect(again.problems).toEqual([]);
        expect(again.value).toEqual(value);
      }),
    );
    fc.assert(
      fc.property(
        fc.dictionary(
          fc.constantFrom(...Object.keys(DEFAULT_BRANDING), 'other'),
          fc.oneof(fc.string(), fc.integer(), fc.constant(null), hex, fc.dictionary(fc.string(), fc.string())),
        ),
        (input) => {
          expect(() => checkBranding(input)).not.toThrow();
        },
      ),
    );
  });
});

describe('merging and storing', () => {
  it('a change merges: given fields replace, null resets to the default, variables merge by name', () => {
    const before = brand({
      accent: '#112233',
      font: 'serif',
      vars: { '--wallery-gap': '4px', '--wallery-padding': '8px' },
    });
    const after = mergeBranding(before, {
      accent: null,
      radius: 4,
      vars: { '--wallery-gap': null, '--wallery-font-size': '18px' },
    });
    expect(after).toEqual(
      brand({ font: 'serif', radius: 4, vars: { '--wallery-font-size': '18px', '--wallery-padding': '8px' } }),
    );
    expect(mergeBranding(after, { vars: null }).vars).toEqual({});
  });

  it('stores null for the defaults, and reads back what it stored; a bad stored field is its default', () => {
    expect(brandingColumn(brand())).toBeNull();
    const b = brand({ accent: '#e4572e', font: 'mono', vars: { '--wallery-gap': '2px' } });
    expect(storedBranding(brandingColumn(b))).toEqual(b);
    expect(storedBranding(null)).toEqual(brand());
    expect(storedBranding('{not json')).toEqual(brand());
    expect(storedBranding('{"accent":"blue","font":"serif","vars":{"--evil":"1","--wallery-gap":"3px"}}')).toEqual(
      brand({ font: 'serif', vars: { '--wallery-gap': '3px' } }),
    );
  });

  it('every font is a stack of system fonts ending in a generic family (nothing to download)', () => {
    for (const font of FONTS) expect(FONT_STACKS[font]).toMatch(/(?:sans-serif|serif|monospace)$/);
    for (const font of FONTS) expect(FONT_STACKS[font]).not.toMatch(/url\(|@import/);
  });
});

describe('contrast against WCAG AA', () => {
  it('refuses text below 4.5:1 on the card background, naming branding.text with the ratio', () => {
    const problems = brandingProblems(brand({ text: '#777777', cardBackground: '#ffffff' }), 'light');
    expect(problems).toHaveLength(1);
    expect(problems[0]!.field).toBe('branding.text');
    expect(problems[0]!.message).toBe(
      'branding.text: the text #777777 on the card background #ffffff has a contrast of 4.47:1; WCAG AA needs at least 4.5:1',
    );
    expect(brandingProblems(brand({ text: '#1b1f24', cardBackground: '#ffffff' }), 'light')).toEqual([]);
    // seen in both themes (auto): the dark theme's light accent does not read on white cards — set the accent too
    const auto = brandingProblems(brand({ text: '#1b1f24', cardBackground: '#ffffff' }), null);
    expect(auto).toEqual([
      {
        field: 'branding.cardBackground',
        message: expect.stringContaining('the dark theme’s accent #8cc2ff on the card background #ffffff') as string,
      },
    ]);
    expect(brandingProblems(brand({ text: '#1b1f24', cardBackground: '#ffffff', accent: '#b5361c' }), null)).toEqual(
      [],
    );
  });

  it('refuses an accent below 3:1 on the cards; with no card colour, on the theme’s — both themes when auto', () => {
    // #0a58ca: 6.44:1 on the light card, 2.4:1 on the dark one
    expect(brandingProblems(brand({ accent: '#0a58ca' }), 'light')).toEqual([]);
    const auto = brandingProblems(brand({ accent: '#0a58ca' }), null);
    expect(auto.map((p) => p.field)).toEqual(['branding.accent']);
    expect(auto[0]!.message).toContain('the dark theme’s card background #1b1e24');
    // a middle orange reads on both
    expect(brandingProblems(brand({ accent: '#e4572e' }), 'auto')).toEqual([]);
  });

  it('a null side is the theme’s own: a dark card needs its text set, else it is refused', () => {
    const dark = brand({ cardBackground: '#202020' });
    expect(effectiveColors(dark, 'light').text).toBe('#1b1f24');
    expect(brandingProblems(dark, 'dark')).toEqual([]);
    expect(brandingProblems(dark, 'light').map((p) => p.field)).toEqual(['branding.cardBackground']);
    expect(brandingProblems({ ...dark, text: '#f5f5f5', accent: '#ffb000' }, 'light')).toEqual([]);
  });

  it('checks a custom muted colour on the cards and an on-accent colour on the accent', () => {
    const problems = brandingProblems(
      brand({ vars: { '--wallery-muted-color': '#dddddd', '--wallery-on-accent-color': '#0a58ca' } }),
      'light',
    );
    expect(problems.map((p) => p.field).sort()).toEqual([
      'branding.vars.--wallery-muted-color',
      'branding.vars.--wallery-on-accent-color',
    ]);
  });

  it('property: a branding whose colours pass has text ≥ 4.5:1 and accent ≥ 3:1 on its cards in every mode', () => {
    fc.assert(
      fc.property(
        fc.option(hex, { nil: null }),
        fc.option(hex, { nil: null }),
        fc.option(hex, { nil: null }),
        fc.constantFrom('light', 'dark', 'auto', null),
        (text, cardBackground, accent, theme) => {
          const b = brand({ text, cardBackground, accent });
          if (brandingProblems(b, theme as never).length > 0) return;
          const modes = theme === 'light' ? ['light'] : theme === 'dark' ? ['dark'] : ['light', 'dark'];
          for (const mode of modes as ('light' | 'dark')[]) {
            const c = effectiveColors(b, mode);
            expect(contrastRatio(c.text, c.cardBackground)).toBeGreaterThanOrEqual(4.5);
            expect(contrastRatio(c.accent, c.cardBackground)).toBeGreaterThanOrEqual(3);
          }
        },
      ),
    );
  });
});
