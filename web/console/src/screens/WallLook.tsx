// The wall form's "Look": the wall's branding (colours with a native picker
// and their hex text, font, corner radius, card style, logo, the event
// screen's call to post and info page) and a live preview that shows the
// contrast of text and accent on the cards — with a warning below WCAG AA
// before saving (the API refuses it, naming the field, all the same). The
// colour maths and font stacks are the embed's own (web/embed/branding.ts).
import { useId, useRef } from 'react';
import { apiErrorOf, type Wall, type WallPatch } from '../api/client';
import { brandingCardStyle, contrast, effectiveColors, FONT_STACKS } from '../../../embed/branding';
import { Options, SelectField, TextField } from '../ui/fields';
import { useUnsavedGuard } from '../ui/useUnsavedGuard';
import './WallLook.css';

type Branding = Wall['branding'];
type Mode = 'light' | 'dark';

/** The look as the form edits it: text for every field ('' = the default: the theme's own). */
export interface LookForm {
  accent: string;
  background: string;
  cardBackground: string;
  text: string;
  font: string;
  radius: string;
  cardStyle: string;
  logoUrl: string;
  callToPost: string;
  infoUrl: string;
}

export const COLOR_FIELDS = ['accent', 'background', 'cardBackground', 'text'] as const;
type ColorField = (typeof COLOR_FIELDS)[number];

const FONTS = [
  ['system', 'System (the device’s own)'],
  ['humanist', 'Humanist sans'],
  ['geometric', 'Geometric sans'],
  ['serif', 'Serif'],
  ['rounded', 'Rounded'],
  ['mono', 'Monospace'],
] as const;

const CARD_STYLES = [
  ['elevated', 'Elevated: a soft shadow'],
  ['flat', 'Flat: no line, no shadow'],
  ['outlined', 'Outlined: a clear line'],
] as const;

const COLOR_LABELS: Record<ColorField, [label: string, hint: string]> = {
  accent: ['Accent colour', 'Links, buttons, highlights, the call to post.'],
  background: ['Background colour', 'Around the cards, and the hosted page.'],
  cardBackground: ['Card colour', 'The posts’ cards.'],
  text: ['Text colour', 'The text on the cards.'],
};

/** The form's look for a wall (its stored branding), or the defaults. */
export function lookOf(wall: Wall | null): LookForm {
  const b = wall?.branding;
  return {
    accent: b?.accent ?? '',
    background: b?.background ?? '',
    cardBackground: b?.cardBackground ?? '',
    text: b?.text ?? '',
    font: b?.font ?? 'system',
    radius: b?.radius == null ? '' : String(b.radius),
    cardStyle: b?.cardStyle ?? 'elevated',
    logoUrl: b?.logoUrl ?? '',
    callToPost: b?.callToPost ?? '',
    infoUrl: b?.infoUrl ?? '',
  };
}

const orNull = (text: string) => (text.trim() === '' ? null : text.trim());

/** The look as the API's branding change: every field, '' as null (the default). Its custom variables stay as they are. */
export function brandingOut(look: LookForm): NonNullable<WallPatch['branding']> {
  const radius = look.radius.trim();
  return {
    accent: orNull(look.accent),
    background: orNull(look.background),
    cardBackground: orNull(look.cardBackground),
    text: orNull(look.text),
    font: look.font as Branding['font'],
    // a number when it is one; else as typed, for the API to name
    radius: radius === '' ? null : /^-?\d{1,4}$/.test(radius) ? Number(radius) : (radius as unknown as number),
    cardStyle: look.cardStyle as Branding['cardStyle'],
    logoUrl: orNull(look.logoUrl),
    callToPost: orNull(look.callToPost),
    infoUrl: orNull(look.infoUrl),
  };
}

/** `#abc` or `#aabbcc` as `#aabbcc`; null for anything else. */
function hexOf(text: string): string | null {
  const m = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(text.trim());
  if (!m) return null;
  const h = m[1]!.toLowerCase();
  return h.length === 3 ? `#${[...h].map((c) => c + c).join('')}` : `#${h}`;
}

/** The look as the embed would take it (bad colours: the theme's), for the preview. */
function previewBranding(look: LookForm): Branding {
  return {
    accent: hexOf(look.accent),
    background: hexOf(look.background),
    cardBackground: hexOf(look.cardBackground),
    text: hexOf(look.text),
    font: (FONT_STACKS as Record<string, string>)[look.font] ? (look.font as Branding['font']) : 'system',
    radius: /^\d{1,2}$/.test(look.radius) ? Math.min(32, Number(look.radius)) : null,
    cardStyle: brandingCardStyle({ cardStyle: look.cardStyle } as Branding),
    logoUrl: null,
    callToPost: orNull(look.callToPost),
    infoUrl: null,
    vars: {},
  };
}

/** The modes a wall of this theme is seen in ('' or auto: both). */
const modesOf = (theme: string): Mode[] =>
  theme === 'light' ? ['light'] : theme === 'dark' ? ['dark'] : ['light', 'dark'];

const ratio = (r: number) => `${(Math.floor(r * 100) / 100).toFixed(2)}:1`;

interface Props {
  look: LookForm;
  theme: string;
  set(change: Partial<LookForm>): void;
  /** the failed save, whose fieldErrors (`branding.text`) the fields show */
  error: unknown;
}

/** The "Look" fieldset of the wall form. */
export function WallLook({ look, theme, set, error }: Props) {
  const apiError = apiErrorOf(error);
  // the look as the form opened with it: a change of it is not dropped without a question
  const opened = useRef(JSON.stringify(look));
  useUnsavedGuard(JSON.stringify(look) !== opened.current, 'The wall’s look you changed is not saved.');
  const field = (name: keyof LookForm) => ({
    value: look[name],
    onChange: (e: { target: { value: string } }) => set({ [name]: e.target.value }),
    error: apiError?.forField(`branding.${name}`),
  });
  return (
    <fieldset className="look">
      <legend>Look</legend>
      <div className="look-colors">
        {COLOR_FIELDS.map((name) => (
          <ColorField
            key={name}
            label={COLOR_LABELS[name][0]}
            hint={`${COLOR_LABELS[name][1]} Empty: the theme’s.`}
            {...field(name)}
            onPick={(value) => set({ [name]: value })}
            fallback={effectiveColors(previewBranding(look), theme === 'dark' ? 'dark' : 'light')[name]}
          />
        ))}
      </div>
      <Preview look={look} theme={theme} />
      <div className="look-row">
        <SelectField label="Font" {...field('font')} hint="System fonts only: nothing is downloaded.">
          <Options of={FONTS} />
        </SelectField>
        <TextField
          label="Corner radius (px)"
          inputMode="numeric"
          {...field('radius')}
          hint="0–32; empty: the theme’s (10)."
        />
        <SelectField label="Cards" {...field('cardStyle')}>
          <Options of={CARD_STYLES} />
        </SelectField>
      </div>
      <TextField label="Logo URL" type="url" {...field('logoUrl')} hint="Shown on the event screen’s banner." />
      <TextField
        label="Call to post"
        {...field('callToPost')}
        maxLength={80}
        hint="The event screen’s banner, e.g. “Post with #harborfest” (at most 80 characters)."
      />
      <TextField
        label="Info URL"
        type="url"
        {...field('infoUrl')}
        hint="An https page the event screen’s QR code points to (how to take part)."
      />
    </fieldset>
  );
}

/** A colour: its hex text (the field the API's error names) and a native picker beside it. */
function ColorField({
  label,
  hint,
  value,
  error,
  onChange,
  onPick,
  fallback,
}: {
  label: string;
  hint: string;
  value: string;
  error: string | undefined;
  onChange(e: { target: { value: string } }): void;
  onPick(value: string): void;
  /** what the picker shows while the field is empty: the colour the wall would show */
  fallback: string;
}) {
  const pickerId = useId();
  return (
    <div className="look-color">
      <TextField
        label={label}
        value={value}
        onChange={onChange}
        error={error}
        hint={hint}
        placeholder="#rrggbb"
        spellCheck={false}
      />
      <input
        id={pickerId}
        className="look-picker"
        type="color"
        aria-label={`${label}: pick`}
        value={hexOf(value) ?? fallback}
        onChange={(e) => onPick(e.target.value)}
      />
    </div>
  );
}

/**
 * A small wall in the look: the background, a card with text, a link and a
 * button in the accent; under it, the contrast of each pair in each mode
 * the wall is seen in, and a warning for a pair below WCAG AA.
 */
function Preview({ look, theme }: { look: LookForm; theme: string }) {
  const b = previewBranding(look);
  const modes = modesOf(theme);
  const checks = modes.flatMap((mode) => {
    const c = effectiveColors(b, mode);
    const where = modes.length > 1 ? ` (${mode} theme)` : '';
    return [
      { what: `Text on cards${where}`, value: contrast(c.text, c.cardBackground), min: 4.5 },
      { what: `Accent on cards${where}`, value: contrast(c.accent, c.cardBackground), min: 3 },
    ];
  });
  const low = checks.filter((x) => x.value < x.min);
  const c = effectiveColors(b, modes[0]!);
  const onAccent = contrast('#ffffff', c.accent) >= contrast('#000000', c.accent) ? '#ffffff' : '#000000';
  return (
    <div className="look-preview">
      <div
        className={`look-wall look-${b.cardStyle}`}
        aria-hidden="true"
        style={{ background: c.background, fontFamily: FONT_STACKS[b.font] }}
      >
        <div
          className="look-card"
          style={{
            background: c.cardBackground,
            color: c.text,
            borderRadius: `${b.radius ?? 10}px`,
            borderColor: b.cardStyle === 'outlined' ? c.text : 'transparent',
          }}
        >
          <strong>Ana Ruiz</strong>
          <span>
            Sunrise over the ridge — worth every step. <span style={{ color: c.accent }}>#trail</span>
          </span>
          <span
            className="look-button"
            style={{ background: c.accent, color: onAccent, borderRadius: `${b.radius ?? 10}px` }}
          >
            Shop the look
          </span>
        </div>
        {b.callToPost && (
          <p className="look-call" style={{ color: c.accent }}>
            {b.callToPost}
          </p>
        )}
      </div>
      <ul className="look-ratios" aria-label="Contrast">
        {checks.map((x) => (
          <li key={x.what} className={x.value < x.min ? 'low' : undefined}>
            {x.what}: {ratio(x.value)} {x.value < x.min ? `— below WCAG AA (${x.min}:1)` : '✓'}
          </li>
        ))}
      </ul>
      {low.length > 0 && (
        <p className="look-warning" role="status">
          Below WCAG AA: {low.map((x) => x.what.toLowerCase()).join(', ')}. The wall will not be saved with these
          colours; make the pair lighter or darker.
        </p>
      )}
    </div>
  );
}
