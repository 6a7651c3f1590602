// The feed form's connector settings, made from the generated connector
// catalogue (api/connectors.gen.ts, from the schemas of src/schemas/connectors.ts):
// what the form holds for a kind (each field's text or tick, and which field
// of each one-of group is asked for), filled back from a saved connector, and
// the connector setting it sends. Pure: no DOM, no React (tested in Node).
import type { CatalogueField, CatalogueKind } from '../../api/connectors.gen';
import { CONNECTOR_CATALOGUE } from '../../api/connectors.gen';

/** A field's value in the form: the input's text, or a checkbox's tick. */
export type FieldValue = string | boolean;

export interface ConnectorForm {
  /** a catalogue kind, or 'none' (posts come from import or the API) */
  kind: string;
  values: Record<string, FieldValue>;
  /** per one-of group of the kind (by index), the field asked for */
  chosen: string[];
}

export const NO_CONNECTOR = 'none';

export const kindInfo = (kind: string): CatalogueKind | undefined => CONNECTOR_CATALOGUE.find((k) => k.kind === kind);

/**
 * A kind's description as a sentence, without the API's note of its one-of
 * rule ("(exactly one of hashtag, account)"): the form asks that with radio buttons.
 */
export const aboutText = (description: string): string => {
  const text = description.replace(/\s*(?:\(exactly one of [^)]*\)|[;,]\s*exactly one of .*)$/, '').trim();
  return text ? `${text.charAt(0).toUpperCase()}${text.slice(1)}${/[.!?]$/.test(text) ? '' : '.'}` : '';
};
/** The one-of group a field belongs to (its index), or -1. */
export const groupOf = (info: CatalogueKind, name: string): number => info.oneOf.findIndex((g) => g.includes(name));

/** Whether a field of one mode (`when`) belongs to the mode chosen in `values`. */
export const inMode = (f: CatalogueField, values: Record<string, FieldValue | undefined>): boolean =>
  !f.when || f.when.values.includes(String(values[f.when.field] ?? ''));

/** The fields the form shows for its kind now: every field but the one-of fields not chosen and other modes' fields. */
export function shownFields(form: ConnectorForm): CatalogueField[] {
  const info = kindInfo(form.kind);
  if (!info) return [];
  return info.fields.filter((f) => {
    const group = groupOf(info, f.name);
    return (group < 0 || form.chosen[group] === f.name) && inMode(f, form.values);
  });
}

/** A saved value as the input's text. */
function textOf(field: CatalogueField, value: unknown): FieldValue {
  if (field.input === 'checkbox') return value === true;
  if (value === undefined || value === null) return '';
  if (Array.isArray(value)) return value.map(String).join(', ');
  return String(value);
}

/** The form for a kind, filled from a saved connector of that kind (else empty). */
export function formOf(kind: string, connector?: Record<string, unknown> | null): ConnectorForm {
  const info = kindInfo(kind);
  const saved = connector && connector.kind === kind ? connector : {};
  const values: Record<string, FieldValue> = {};
  for (const f of info?.fields ?? []) values[f.name] = textOf(f, saved[f.name]);
  const chosen = (info?.oneOf ?? []).map((group) => group.find((name) => saved[name] !== undefined) ?? group[0]!);
  return { kind, values, chosen };
}

/** Another kind chosen: its own empty form, keeping what the two kinds share (an instance URL, a hashtag). */
export function switchKind(form: ConnectorForm, kind: string): ConnectorForm {
  const next = formOf(kind);
  const info = kindInfo(kind);
  for (const f of info?.fields ?? []) {
    const old = form.values[f.name];
    if (old !== undefined && typeof old === typeof next.values[f.name] && f.input !== 'connection')
      next.values[f.name] = old;
  }
  return next;
}

// What people type that a network's name does not take: the # of a hashtag, the @ of an account.
const HASH_FIELDS = /^(hashtag|hashtags|tag|tags)$|Hashtag$/;
const AT_FIELDS = /^(account|actor|user|username|handle)$/;
function cleaned(name: string, text: string): string {
  const t = text.trim();
  if (HASH_FIELDS.test(name)) return t.replace(/^#/, '');
  if (AT_FIELDS.test(name)) return t.replace(/^@/, '');
  return t;
}

/** A field's setting from its input (undefined: left out of the connector). */
function settingOf(field: CatalogueField, value: FieldValue | undefined): unknown {
  if (field.input === 'checkbox') return value === true ? true : field.required ? false : undefined;
  const text = typeof value === 'string' ? value.trim() : '';
  if (field.input === 'number' || field.input === 'connection') {
    if (text === '') return undefined;
    // a number the API reads as one; anything else it refuses under the field
    return /^-?\d+(\.\d+)?$/.test(text) ? Number(text) : text;
  }
  if (field.input === 'select') return text === '' ? undefined : text;
  if (field.input === 'list') {
    const items = text
      .split(',')
      .map((item) => cleaned(field.name, item))
      .filter((item) => item !== '');
    return items.length === 0 && !field.required ? undefined : items;
  }
  const t = cleaned(field.name, text);
  // a required text goes as typed, empty too: the API says under the field what it must be
  return t === '' && !field.required ? undefined : t;
}

/** The connector setting the form says (null: no connector). */
export function connectorOf(form: ConnectorForm): Record<string, unknown> | null {
  if (!kindInfo(form.kind)) return null;
  const connector: Record<string, unknown> = { kind: form.kind };
  for (const f of shownFields(form)) {
    const value = settingOf(f, form.values[f.name]);
    // the one-of field asked for is sent even empty: the API then says under it what it must be
    const asked = f.input === 'text' || f.input === 'url' ? (value ?? '') : value;
    if (groupOf(kindInfo(form.kind)!, f.name) >= 0) connector[f.name] = asked;
    else if (value !== undefined) connector[f.name] = value;
  }
  return connector;
}

/**
 * The feed's `source` (the network) and `sourceType` (what on it) as the form
 * records them on creation; the connector's own words replace them at the
 * first poll (src/ingest/runtime.ts), so these only have to be close: the
 * one-of field asked for (channelId → channel), else the first choice made
 * (a mode), else the kind's first required text, else "feed".
 */
export function sourceOf(form: ConnectorForm): { source: string; sourceType: string } {
  const info = kindInfo(form.kind);
  if (!info) return { source: 'Manual', sourceType: 'posts' };
  const select = info.fields.find((f) => f.input === 'select' && f.required && form.values[f.name]);
  const text = info.fields.find((f) => f.required && f.input === 'text');
  const what = form.chosen[0] ?? (select ? String(form.values[select.name]) : (text?.name ?? 'feed'));
  return { source: info.source, sourceType: what.replace(/Id$/, '') };
}

/** What a connector of any kind collects, in a few words: its network and the settings it names. */
export function describeSettings(connector: Record<string, unknown>): string {
  const info = kindInfo(String(connector.kind));
  if (!info) return String(connector.kind);
  const said = info.fields
    .filter((f) => !f.advanced && f.input !== 'checkbox' && f.input !== 'connection')
    .map((f) => connector[f.name])
    .filter((v) => v !== undefined && v !== '')
    .map((v) => (Array.isArray(v) ? v.join(', ') : String(v)));
  return said.length ? `${info.title}: ${said.join(' · ')}` : info.title;
}
