// A valid setting of every connector kind, made from the generated catalogue
// (web/console/src/api/connectors.gen.ts) the way an operator fills the feed
// form: each required field, and the first field of each one-of group, with
// the field's example (`examples` in src/schemas/connectors.ts, the form's
// placeholder) or a plain value of its input. A kind whose fields take
// something else (a pattern) needs an `examples` value on that field.
import type { CatalogueField, CatalogueKind } from '../../web/console/src/api/connectors.gen.js';

/** What to type into a field (a checkbox: whether to tick it). */
export function sampleOf(field: CatalogueField, connectionId: number): string | boolean {
  switch (field.input) {
    case 'connection':
      return String(connectionId);
    case 'checkbox':
      return false;
    case 'select':
      return field.options?.[0]?.value ?? '';
    case 'number':
      return String(field.min ?? 1);
    case 'url':
      return field.placeholder ?? 'https://example.com/';
    default:
      return field.placeholder ?? 'wallery';
  }
}

/**
 * The fields an operator fills for a valid setting of the kind: the required
 * ones and each one-of (or any-of) group's first — of a field of one mode (`when`), only
 * when the mode filled in (a select's first option) is its mode.
 */
export function fieldsToFill(kind: CatalogueKind): CatalogueField[] {
  const firsts = new Set([...kind.oneOf, ...kind.anyOf].map((g) => g[0]));
  const grouped = new Set(kind.oneOf.flat());
  const wanted = kind.fields.filter((f) => firsts.has(f.name) || (f.required && !grouped.has(f.name)));
  const values = Object.fromEntries(wanted.map((f) => [f.name, sampleOf(f, 1)]));
  return wanted.filter((f) => !f.when || f.when.values.includes(String(values[f.when.field] ?? '')));
}
