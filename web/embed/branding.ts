// A wall's branding (the embed API's `wall.branding`) as CSS custom
// properties on the <wallery-wall> host, set through the CSSOM (a strict
// CSP allows no style attribute), and the card style the host's
// `card-style` attribute names for the stylesheet. A null colour leaves the
// theme's (the server's contrast check assumes the same); the colours the
// branding does not set but that must read against the ones it does (muted
// text, lines, text on the accent, text on the background) are derived here. Browser code takes only types
// from src/, so the few lines of the WCAG formula and the font stacks are
// repeated here; test/web/branding.test.ts checks they agree.
import type { EmbedWall } from './types.js';

export type Branding = EmbedWall['branding'];
export type Mode = 'light' | 'dark';
export type CardStyle = Branding['cardStyle'];

/** The font stacks of src/domain/branding.ts (FONT_STACKS): system fonts only. */
export const FONT_STACKS: Readonly<Record<Branding['font'], string>> = {
  system: "system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif",
  humanist: 'Seravek, Ubuntu, Calibri, sans-serif',
  geometric: 'Avenir, Montserrat, Corbel, sans-serif',
  serif: 'Charter, Cambria, Georgia, serif',
  rounded: 'ui-rounded, Quicksand, Calibri, sans-serif',
  mono: 'ui-monospace, Menlo, Consolas, monospace',
};

type ColorField = 'accent' | 'background' | 'cardBackground' | 'text';

/** The embed's theme colours (styles.ts), as src/domain/branding.ts names them. */
export const THEME_COLORS: Readonly<Record<Mode, Readonly<Record<ColorField, string>>>> = {
  light: { background: '#f3f4f6', cardBackground: '#ffffff', text: '#1b1f24', accent: '#0a58ca' },
  dark: { background: '#0f1115', cardBackground: '#1b1e24', text: '#eceef1', accent: '#8cc2ff' },
};

const HEX = /^#[0-9a-f]{6}$/;
const hex = (v: unknown): string | null => (typeof v === 'string' && HEX.test(v) ? v : null);

/** WCAG 2.x relative luminance of `#rrggbb`. */
export function luminance(color: string): number {
  const channel = (i: number) => {
    const c = parseInt(color.slice(i, i + 2), 16) / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5);
}

/** WCAG 2.x contrast ratio of two `#rrggbb` colours, 1 to 21. */
export function contrast(a: string, b: string): number {
  const [x, y] = [luminance(a), luminance(b)];
  return (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05);
}

/** `a` mixed into `b`, `share` of `a` (0..1), as `#rrggbb`. */
function mix(a: string, b: string, share: number): string {
  let out = '#';
  for (const i of [1, 3, 5]) {
    const v = Math.round(parseInt(a.slice(i, i + 2), 16) * share + parseInt(b.slice(i, i + 2), 16) * (1 - share));
    out += v.toString(16).padStart(2, '0');
  }
  return out;
}

/** The first of `colors` reaching `min` against `bg`, else the one that contrasts most. */
function firstReading(colors: string[], bg: string, min: number): string {
  return (
    colors.find((c) => contrast(c, bg) >= min) ?? colors.reduce((a, b) => (contrast(b, bg) > contrast(a, bg) ? b : a))
  );
}

/** The colours the wall shows in a mode: the branding's, else the theme's (src/domain/branding.ts: effectiveColors). */
export function effectiveColors(b: Branding, mode: Mode): Record<ColorField, string> {
  const d = THEME_COLORS[mode];
  return {
    background: hex(b.background) ?? d.background,
    cardBackground: hex(b.cardBackground) ?? d.cardBackground,
    text: hex(b.text) ?? d.text,
    accent: hex(b.accent) ?? d.accent,
  };
}

const VAR_NAME = /^--wallery-[a-z-]+$/;

/**
 * The CSS custom properties of a wall's branding, in a colour mode (`light`
 * or `dark`: the theme the wall is shown in). Empty without a branding (an
 * older server) or with all its defaults: the stylesheet's theme stays, and
 * a page's own `--wallery-*` values with it. Each colour the branding
 * changes brings the ones that must read against it.
 */
export function brandingProps(branding: Branding | undefined, theme: Mode): Record<string, string> {
  if (!branding || typeof branding !== 'object') return {};
  const props: Record<string, string> = {};
  const d = THEME_COLORS[theme];
  const c = effectiveColors(branding, theme);
  const set = (name: string, value: string, unless?: string) => {
    if (value !== unless) props[name] = value;
  };
  set('--wallery-background', c.background, d.background);
  set('--wallery-card-background', c.cardBackground, d.cardBackground);
  set('--wallery-color', c.text, d.text);
  set('--wallery-accent', c.accent, d.accent);
  if (c.text !== d.text || c.cardBackground !== d.cardBackground) {
    // muted text: between the text and the card, as far toward the card as still reads (AA)
    props['--wallery-muted-color'] = firstReading([mix(c.text, c.cardBackground, 0.75), c.text], c.cardBackground, 4.5);
    props['--wallery-border-color'] = mix(c.text, c.cardBackground, 0.22);
  }
  if (c.accent !== d.accent || c.cardBackground !== d.cardBackground) {
    // the accent as text (links, "more", the shop button's label) needs 4.5:1 on the cards, where the
    // accent as a UI colour needs 3:1: toward the text colour until it reads
    const link = [1, 0.7, 0.45, 0.2].map((share) => mix(c.accent, c.text, share));
    props['--wallery-link-color'] = firstReading([...link, c.text], c.cardBackground, 4.5);
  }
  if (c.accent !== d.accent) {
    props['--wallery-on-accent-color'] = firstReading(['#ffffff', '#000000'], c.accent, 4.5);
    props['--wallery-focus-color'] = c.accent;
  }
  if (c.background !== d.background || c.text !== d.text || c.accent !== d.accent) {
    // what sits on the background itself (the event screen's banner and waiting screen, status lines):
    // text that reads there (AA), and the accent where it does (3:1 for its large call to post), else that text
    const page = firstReading([c.text, d.text, THEME_COLORS.light.text, THEME_COLORS.dark.text], c.background, 4.5);
    props['--wallery-page-color'] = page;
    props['--wallery-page-accent'] = contrast(c.accent, c.background) >= 3 ? c.accent : page;
  }
  const font = FONT_STACKS[branding.font];
  if (font && branding.font !== 'system') props['--wallery-font'] = font;
  if (
    typeof branding.radius === 'number' &&
    Number.isInteger(branding.radius) &&
    branding.radius >= 0 &&
    branding.radius <= 32
  )
    props['--wallery-radius'] = `${branding.radius}px`;
  // the wall's own variables win over what is derived above
  for (const [name, value] of Object.entries(branding.vars ?? {}))
    if (VAR_NAME.test(name) && typeof value === 'string') props[name] = value;
  return props;
}

/** The card style the host's `card-style` attribute names: elevated (the stylesheet's own), flat or outlined. */
export function brandingCardStyle(branding: Branding | undefined): CardStyle {
  const style = branding?.cardStyle;
  return style === 'flat' || style === 'outlined' ? style : 'elevated';
}

/**
 * Applies the properties to `host` through the CSSOM, removing the ones the
 * previous call set that are gone, and its `card-style` attribute; returns
 * what it set, for the next call. Nothing is touched when nothing changed.
 */
export function applyBranding(
  host: HTMLElement,
  props: Record<string, string>,
  cardStyle: CardStyle,
  previous: Record<string, string>,
): Record<string, string> {
  for (const name of Object.keys(previous)) if (!(name in props)) host.style.removeProperty(name);
  for (const [name, value] of Object.entries(props)) if (previous[name] !== value) host.style.setProperty(name, value);
  if (host.getAttribute('card-style') !== cardStyle) host.setAttribute('card-style', cardStyle);
  return props;
}
