// A wall's branding: its colours, font, corner radius, card style, logo, the
// event screen's call to post and info page, and a few allow-listed CSS
// variables. The defaults, how a written value is checked and stored
// (colours lower-cased `#rrggbb`), how a change merges into what is stored,
// and the WCAG 2.x AA contrast check. Pure: the management API, the CLI and
// the data file check with it, the embed presenter reads stored values back
// through it. The embed (web/embed/branding.ts) maps the result to CSS.
import type { EmbedTheme } from './lists.js';
import { normalizeHttpUrl } from './sanitize.js';
import { storedText } from './writes.js';

/** The safe list of fonts: system font stacks only (nothing downloaded, nothing a CSP has to allow). */
export const FONTS = ['system', 'humanist', 'geometric', 'serif', 'rounded', 'mono'] as const;
export type Font = (typeof FONTS)[number];

/** Each font's CSS stack: the fonts the common systems ship, most specific first. */
export const FONT_STACKS: Readonly<Record<Font, string>> = {
  system: "system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif",
  humanist: 'Seravek, Ubuntu, Calibri, sans-serif',
  geometric: 'Avenir, Montserrat, Corbel, sans-serif',
  serif: 'Charter, Cambria, Georgia, serif',
  rounded: 'ui-rounded, Quicksand, Calibri, sans-serif',
  mono: 'ui-monospace, Menlo, Consolas, monospace',
};

/** How a card stands off the background: a shadow (default), nothing, or a line. */
export const CARD_STYLES = ['elevated', 'flat', 'outlined'] as const;
export type CardStyle = (typeof CARD_STYLES)[number];

/** the corner radius's bounds, in px */
export const RADIUS_MAX = 32;
/** the event screen's call to post, at most this many characters */
export const CALL_TO_POST_MAX = 80;
/** custom variables on one wall, at most */
export const VARS_MAX = 16;

/**
 * The custom CSS variables a wall may set besides the fields above, and
 * the kind of value each takes. Only these names (all read by the embed's
 * styles): never raw CSS, never a name the fields above already set.
 */
export const CUSTOM_VARS = {
  '--wallery-muted-color': 'color',
  '--wallery-border-color': 'color',
  '--wallery-on-accent-color': 'color',
  '--wallery-focus-color': 'color',
  '--wallery-font-size': 'length',
  '--wallery-padding': 'length',
  '--wallery-gap': 'length',
  '--wallery-line-height': 'number',
} as const satisfies Record<string, VarKind>;
export type VarKind = 'color' | 'length' | 'number';
export type CustomVar = keyof typeof CUSTOM_VARS;
export const VAR_NAME = /^--wallery-[a-z-]+$/;

/** What each kind of variable takes, in words (messages and docs). */
export const VAR_RULES: Readonly<Record<VarKind, string>> = {
  color: 'a hex colour such as #1a2b3c or #abc',
  length: 'a length from 0 to 64px (or 0 to 4rem / 4em), such as 14px or 1.2rem',
  number: 'a number from 0.8 to 3, such as 1.5',
};

/** A wall's branding as stored and as the embed API gives it. A null colour or radius: the theme's own. */
export interface Branding {
  accent: string | null;
  background: string | null;
  cardBackground: string | null;
  text: string | null;
  font: Font;
  radius: number | null;
  cardStyle: CardStyle;
  logoUrl: string | null;
  callToPost: string | null;
  infoUrl: string | null;
  vars: Record<string, string>;
}

/** A change to a branding: the fields given change, a null resets one to its default; `vars` merge by name (a null value removes one, `vars: null` all). */
export type BrandingPatch = {
  [K in keyof Omit<Branding, 'vars'>]?: Branding[K] | null;
} & { vars?: Record<string, string | null> | null };

export const DEFAULT_BRANDING: Readonly<Branding> = Object.freeze({
  accent: null,
  background: null,
  cardBackground: null,
  text: null,
  font: 'system',
  radius: null,
  cardStyle: 'elevated',
  logoUrl: null,
  callToPost: null,
  infoUrl: null,
  vars: Object.freeze({}) as Record<string, string>,
});

export const COLOR_FIELDS = ['accent', 'background', 'cardBackground', 'text'] as const;
export type ColorField = (typeof COLOR_FIELDS)[number];

/** The embed's theme colours (web/embed/styles.ts): what a null colour shows. */
export const THEME_COLORS: Readonly<Record<'light' | 'dark', Readonly<Record<ColorField, string>>>> = {
  light: { background: '#f3f4f6', cardBackground: '#ffffff', text: '#1b1f24', accent: '#0a58ca' },
  dark: { background: '#0f1115', cardBackground: '#1b1e24', text: '#eceef1', accent: '#8cc2ff' },
};

/** WCAG 2.x AA: body text on its background, and UI components (links, buttons, focus) on theirs. */
export const AA_TEXT = 4.5;
export const AA_UI = 3;

// ---------- colours ----------

/** `#rgb` or `#rrggbb` (any case) as `#rrggbb` in lower case; null for anything else. */
export function normalizeHex(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const m = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(value.trim());
  if (!m) return null;
  const hex = m[1]!.toLowerCase();
  return hex.length === 3 ? `#${hex[0]}${hex[0]}${hex[1]}${hex[1]}${hex[2]}${hex[2]}` : `#${hex}`;
}

/** WCAG 2.x relative luminance of a `#rrggbb` colour (0 black … 1 white). */
export function relativeLuminance(hex: string): number {
  const channel = (i: number) => {
    const c = parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5);
}

/** WCAG 2.x contrast ratio of two `#rrggbb` colours: 1 (the same) to 21 (black on white); symmetric. */
export function contrastRatio(a: string, b: string): number {
  const [hi, lo] = [relativeLuminance(a), relativeLuminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

/** A ratio as messages show it: rounded down to two decimals (4.499 is not 4.5), `4.48:1`. */
export const ratioText = (ratio: number) => `${(Math.floor(ratio * 100) / 100).toFixed(2)}:1`;

// ---------- checking a written branding ----------

export interface BrandingProblem {
  /** `branding.accent`, `branding.vars.--wallery-gap` */
  field: string;
  message: string;
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

const FIELD_NAMES: readonly (keyof Branding)[] = Object.keys(DEFAULT_BRANDING) as (keyof Branding)[];

/** A custom variable's value as stored, or null when the kind refuses it. */
export function varValue(kind: VarKind, value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const v = value.trim().toLowerCase();
  if (kind === 'color') return normalizeHex(v);
  if (kind === 'number') {
    if (!/^\d{1,2}(?:\.\d{1,3})?$/.test(v)) return null;
    const n = Number(v);
    return n >= 0.8 && n <= 3 ? String(n) : null;
  }
  const m = /^(\d{1,3}(?:\.\d{1,3})?)(px|rem|em)$/.exec(v) ?? (v === '0' ? ['0', '0', 'px'] : null);
  if (!m) return null;
  const n = Number(m[1]);
  if (n > (m[2] === 'px' ? 64 : 4)) return null;
  return `${n}${m[2]}`;
}

/**
 * A written branding (a whole one, or a change to one) checked field by
 * field: each problem names its field (`branding.accent`); the value holds
 * the fields that passed, stored-normalized (colours `#rrggbb`, URLs in
 * their normal form, text without markup or control characters). Never
 * throws, whatever it is given.
 */
export function checkBranding(
  input: unknown,
  field = 'branding',
): { value: BrandingPatch; problems: BrandingProblem[] } {
  const problems: BrandingProblem[] = [];
  const value: BrandingPatch = {};
  if (!isObject(input)) return { value, problems: [{ field, message: `${field} must be an object` }] };
  const refuse = (name: string, message: string) => problems.push({ field: `${field}.${name}`, message });
  for (const [name, given] of Object.entries(input)) {
    if (!(FIELD_NAMES as string[]).includes(name)) {
      refuse(name, `${field}.${name} is not a known field`);
      continue;
    }
    const key = name as keyof Branding;
    const at = `${field}.${name}`;
    if (given === null) {
      (value as Record<string, unknown>)[key] = null;
      continue;
    }
    switch (key) {
      case 'accent':
      case 'background':
      case 'cardBackground':
      case 'text': {
        const hex = normalizeHex(given);
        if (hex === null) refuse(name, `${at} must be null or a hex colour such as #1a2b3c or #abc`);
        else value[key] = hex;
        break;
      }
      case 'font':
        if (typeof given === 'string' && (FONTS as readonly string[]).includes(given)) value.font = given as Font;
        else refuse(name, `${at} must be ${FONTS.join(', ')}`);
        break;
      case 'cardStyle':
        if (typeof given === 'string' && (CARD_STYLES as readonly string[]).includes(given))
          value.cardStyle = given as CardStyle;
        else refuse(name, `${at} must be ${CARD_STYLES.join(', ')}`);
        break;
      case 'radius':
        if (typeof given === 'number' && Number.isInteger(given) && given >= 0 && given <= RADIUS_MAX)
          value.radius = given;
        else refuse(name, `${at} must be null or a whole number of px from 0 to ${RADIUS_MAX}`);
        break;
      case 'logoUrl':
      case 'infoUrl': {
        // http too: an instance on a venue's own network may have no certificate
        const url = typeof given === 'string' && given.length <= 2048 ? normalizeHttpUrl(given.trim()) : null;
        if (url === null)
          refuse(name, `${at} must be null or an absolute http or https URL of at most 2048 characters`);
        else value[key] = url;
        break;
      }
      case 'callToPost': {
        const text = typeof given === 'string' ? storedText(given).replace(/\s+/g, ' ').trim() : null;
        if (text === null || [...text].length > CALL_TO_POST_MAX)
          refuse(name, `${at} must be null or a text of at most ${CALL_TO_POST_MAX} characters`);
        else value.callToPost = text === '' ? null : text;
        break;
      }
      case 'vars': {
        if (!isObject(given)) {
          refuse(name, `${at} must be null or an object of CSS variables`);
          break;
        }
        const vars: Record<string, string | null> = {};
        for (const [v, raw] of Object.entries(given)) {
          const kind = Object.hasOwn(CUSTOM_VARS, v) ? CUSTOM_VARS[v as CustomVar] : undefined;
          if (!VAR_NAME.test(v) || kind === undefined) {
            refuse(`vars.${v}`, `${at}.${v} is not a variable a wall may set (${Object.keys(CUSTOM_VARS).join(', ')})`);
            continue;
          }
          if (raw === null) {
            vars[v] = null;
            continue;
          }
          const ok = varValue(kind, raw);
          if (ok === null) refuse(`vars.${v}`, `${at}.${v} must be ${VAR_RULES[kind]}`);
          else vars[v] = ok;
        }
        value.vars = vars;
        break;
      }
    }
  }
  return { value, problems };
}

/** `change` applied to `stored`: given fields replace, null resets to the default, vars merge by name. */
export function mergeBranding(stored: Readonly<Branding>, change: BrandingPatch): Branding {
  const out: Branding = { ...stored, vars: { ...stored.vars } };
  for (const key of FIELD_NAMES) {
    if (key === 'vars' || !(key in change)) continue;
    const v = change[key];
    if (v === undefined) continue;
    (out as unknown as Record<string, unknown>)[key] = v === null ? DEFAULT_BRANDING[key] : v;
  }
  if (change.vars === null) out.vars = {};
  else if (change.vars)
    for (const [name, v] of Object.entries(change.vars)) {
      if (v === null) delete out.vars[name];
      else out.vars[name] = v;
    }
  out.vars = Object.fromEntries(Object.entries(out.vars).sort(([a], [b]) => (a < b ? -1 : 1)));
  return out;
}

/** True when the branding is all defaults (the store keeps null for it). */
export const isDefaultBranding = (b: Readonly<Branding>) =>
  FIELD_NAMES.every((k) => (k === 'vars' ? Object.keys(b.vars).length === 0 : b[k] === DEFAULT_BRANDING[k]));

/** A merged branding's problems beyond its fields: too many variables, colour pairs below AA. */
export function brandingProblems(
  b: Readonly<Branding>,
  theme: EmbedTheme | null,
  field = 'branding',
): BrandingProblem[] {
  const problems: BrandingProblem[] = [];
  if (Object.keys(b.vars).length > VARS_MAX)
    problems.push({ field: `${field}.vars`, message: `${field}.vars may set at most ${VARS_MAX} variables` });
  return [...problems, ...contrastProblems(b, theme, field)];
}

// ---------- contrast ----------

/** The colour modes a wall of this theme is seen in: auto (or none) is both, as the reader's system chooses. */
export const modesOf = (theme: EmbedTheme | null): ('light' | 'dark')[] =>
  theme === 'light' ? ['light'] : theme === 'dark' ? ['dark'] : ['light', 'dark'];

/** The colours the embed shows in a mode: the branding's, and the theme's own where it leaves one null. */
export function effectiveColors(b: Readonly<Branding>, mode: 'light' | 'dark'): Record<ColorField, string> {
  const d = THEME_COLORS[mode];
  return {
    background: b.background ?? d.background,
    cardBackground: b.cardBackground ?? d.cardBackground,
    text: b.text ?? d.text,
    accent: b.accent ?? d.accent,
  };
}

const MODE_WORD = { light: 'the light theme’s', dark: 'the dark theme’s' } as const;

/**
 * The colour pairs below WCAG AA, each a problem of the field that was set
 * (the text, else the card background; the accent, else the card
 * background): text on cards ≥ 4.5:1; the accent (links, buttons) on cards
 * ≥ 3:1; a custom muted colour on cards ≥ 4.5:1; a custom on-accent colour
 * on the accent ≥ 4.5:1. A null side is the theme's own colour, in each
 * mode the wall's theme is seen in — so with the theme auto (or none) a set
 * colour must pass against both the light and the dark theme's default.
 */
export function contrastProblems(
  b: Readonly<Branding>,
  theme: EmbedTheme | null,
  field = 'branding',
): BrandingProblem[] {
  const out = new Map<string, string>();
  const check = (name: string, fg: string, bg: string, min: number, what: string) => {
    const ratio = contrastRatio(fg, bg);
    if (ratio >= min || out.has(name)) return;
    out.set(name, `${field}.${name}: ${what} has a contrast of ${ratioText(ratio)}; WCAG AA needs at least ${min}:1`);
  };
  for (const mode of modesOf(theme)) {
    const c = effectiveColors(b, mode);
    const cardName = (set: string | null) =>
      set === null
        ? `${MODE_WORD[mode]} card background ${c.cardBackground}`
        : `the card background ${c.cardBackground}`;
    if (b.text !== null || b.cardBackground !== null) {
      const textWord = b.text === null ? `${MODE_WORD[mode]} text ${c.text}` : `the text ${c.text}`;
      check(
        b.text !== null ? 'text' : 'cardBackground',
        c.text,
        c.cardBackground,
        AA_TEXT,
        `${textWord} on ${cardName(b.cardBackground)}`,
      );
    }
    if (b.accent !== null || b.cardBackground !== null) {
      const accentWord = b.accent === null ? `${MODE_WORD[mode]} accent ${c.accent}` : `the accent ${c.accent}`;
      check(
        b.accent !== null ? 'accent' : 'cardBackground',
        c.accent,
        c.cardBackground,
        AA_UI,
        `${accentWord} on ${cardName(b.cardBackground)}`,
      );
    }
    const muted = b.vars['--wallery-muted-color'];
    if (muted)
      check(
        'vars.--wallery-muted-color',
        muted,
        c.cardBackground,
        AA_TEXT,
        `the muted colour ${muted} on ${cardName(b.cardBackground)}`,
      );
    const onAccent = b.vars['--wallery-on-accent-color'];
    if (onAccent)
      check(
        'vars.--wallery-on-accent-color',
        onAccent,
        c.accent,
        AA_TEXT,
        `the on-accent colour ${onAccent} on the accent ${c.accent}`,
      );
  }
  return [...out].map(([name, message]) => ({ field: `${field}.${name}`, message }));
}

// ---------- stored ----------

/**
 * A stored branding (the walls.branding JSON; null: all defaults) read
 * back: a field that does not check is its default, so a row written by
 * hand or by an older version never breaks a read.
 */
export function storedBranding(json: string | null | undefined): Branding {
  if (json == null || json === '') return { ...DEFAULT_BRANDING, vars: {} };
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    return { ...DEFAULT_BRANDING, vars: {} };
  }
  if (!isObject(parsed)) return { ...DEFAULT_BRANDING, vars: {} };
  const fields: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(parsed)) {
    // each field on its own: one bad field leaves the others
    const one = checkBranding({ [k]: v });
    if (one.problems.length === 0) Object.assign(fields, one.value);
    else if (k === 'vars' && isObject(v)) {
      const good = Object.fromEntries(
        Object.entries(v).filter(([n, x]) => checkBranding({ vars: { [n]: x } }).problems.length === 0),
      );
      Object.assign(fields, checkBranding({ vars: good }).value);
    }
  }
  return mergeBranding(DEFAULT_BRANDING, fields as BrandingPatch);
}

/** A branding as the store keeps it: null when all defaults, else its JSON. */
export const brandingColumn = (b: Readonly<Branding>): string | null =>
  isDefaultBranding(b) ? null : JSON.stringify(b);
