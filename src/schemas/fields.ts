// The field rules every resource schema is built from: wording of each
// field's error (`x-error`), the shapes of ids, texts, URLs, colours, dates,
// paging, and records that forbid properties they do not name.
import { Type, type TSchema, type TString } from 'typebox';
import { WRITE_MESSAGES } from '../domain/writes.js';

/** items per page of a management list: default and most */
export const PAGE_DEFAULT = 50;
export const PAGE_MAX = 200;

// ---------- field rules ----------

export const HTTP_URL = '^[hH][tT][tT][pP][sS]?://[^\\s/?#]+(?:[/?#]\\S*)?$';

export const M = {
  id: (name: string) => `${name} must be a positive integer`,
  limit: `limit must be an integer from 1 to ${PAGE_MAX}`,
  cursor: 'cursor is not one this API returned',
  text: (name: string, max: number) => `${name} must be a string of 1 to ${max} characters, not only spaces`,
  optText: (name: string, max: number) => `${name} must be a string of at most ${max} characters`,
  url: WRITE_MESSAGES.url,
  optUrl: WRITE_MESSAGES.emptyOrUrl,
  bool: (name: string) => `${name} must be true or false`,
  color: (name: string) => `${name} must be a hex colour such as #ffffff`,
  percent: (name: string) => `${name} must be a number from 0 to 100`,
  patch: 'body must name at least one field to change',
} as const;

/** A path or query id: a string of digits (no coercion; converted in code). */
export const IdString = (name: string) =>
  Type.String({
    pattern: '^0*[1-9][0-9]{0,14}$',
    'x-error': M.id(name),
    description: `${name} (digits)`,
    examples: ['7011'],
  });

export const Text = (name: string, max: number, extra: Record<string, unknown> = {}) =>
  Type.String({ minLength: 1, maxLength: max, pattern: '\\S', 'x-error': M.text(name, max), ...extra });
export const OptText = (name: string, max: number) => Type.String({ maxLength: max, 'x-error': M.optText(name, max) });
export const Url = (name: string) => Type.String({ maxLength: 2048, pattern: HTTP_URL, 'x-error': M.url(name) });
export const OptUrl = (name: string) =>
  Type.String({ maxLength: 2048, pattern: `^$|${HTTP_URL}`, 'x-error': M.optUrl(name) });
export const Bool = (name: string, description?: string) =>
  Type.Boolean({ 'x-error': M.bool(name), ...(description ? { description } : {}) });
export const Color = (name: string) =>
  Type.String({
    pattern: '^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{4}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$',
    'x-error': M.color(name),
  });
export const Percent = (name: string) =>
  Type.Number({
    minimum: 0,
    maximum: 100,
    'x-error': M.percent(name),
    description: `${name} position in percent (0–100)`,
  });
export const PositiveId = (name: string) =>
  Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER, 'x-error': M.id(name) });
/** A body's `postIds`: 1 to `max` post ids (bulk moderation, rights requests). */
export const PostIdList = (max: number, description?: string) =>
  Type.Array(PositiveId('each post id'), {
    minItems: 1,
    maxItems: max,
    'x-error': `postIds must be a list of 1 to ${max} post ids`,
    ...(description !== undefined ? { description } : {}),
  });

export const strict = { additionalProperties: false } as const;
export const patch = { additionalProperties: false, minProperties: 1, 'x-error': M.patch } as const;

export const pageQuery = {
  limit: Type.Optional(
    Type.String({
      pattern: `^0*(?:[1-9][0-9]?|1[0-9]{2}|200)$`,
      'x-error': M.limit,
      description: `items per page, 1–${PAGE_MAX}, default ${PAGE_DEFAULT}`,
    }),
  ),
  cursor: Type.Optional(
    Type.String({
      pattern: '^[A-Za-z0-9_-]{1,500}$',
      'x-error': M.cursor,
      description: 'the `nextCursor` of the previous page',
    }),
  ),
};

export const PageQuery = Type.Object(pageQuery, strict);

/** Routes that take no query parameter still refuse unknown ones. */
export const NoQuery = Type.Object({}, strict);

export const optional = <T extends Record<string, TSchema>>(o: T) =>
  Object.fromEntries(Object.entries(o).map(([k, v]) => [k, Type.Optional(v)])) as {
    [K in keyof T]: ReturnType<typeof Type.Optional<T[K]>>;
  };

// ---------- records (responses) ----------
// Every record forbids properties it does not name, so a validator catches a
// field that should not be there (the audit summary is the one open map).

export const Instant = Type.String({ format: 'date-time', description: 'ISO 8601 UTC' });
export const NullableInstant = Type.Union([Instant, Type.Null()]);
export const Nullable = <T extends TSchema>(t: T) => Type.Union([t, Type.Null()]);
/** A response record: exactly these properties. */
export const Record = <T extends Record<string, TSchema>>(properties: T, options: Record<string, unknown> = {}) =>
  Type.Object(properties, { ...strict, ...options });

/**
 * The records of a resource that holds a secret: the one every read answers,
 * and the one the write that makes the secret answers — the same fields and
 * the secret, the only time it is shown.
 */
export function recordsWithSecret<T extends Record<string, TSchema>, K extends string>(
  fields: T,
  secret: K,
  description: string,
) {
  const shownOnce = { [secret]: Type.String({ description }) } as { [P in K]: TString };
  return [Record(fields), Record({ ...fields, ...shownOnce })] as const;
}
