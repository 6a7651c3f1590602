// Every stored column of a post, checked against the registry of post fields
// (src/domain/post-fields.ts): the value a post has when its source does not
// give one, the column behind each content field that the management API and
// the data file share (src/schemas/posts.ts `PostContent`), the columns
// upstream writes, and the call-to-action's columns. The types are
// exhaustive: a column added to PostsTable, or a field added to PostContent,
// does not compile until the registry lists it (CONTRIBUTING.md: adding a
// post field).
import { randomInt } from 'node:crypto';
import type { Selectable } from 'kysely';
import type { Static } from 'typebox';
import {
  CONTENT_COLUMNS,
  FLAG_COLUMNS,
  UPSTREAM_COLUMNS,
  type FlagColumn,
  type RegisteredDefaults,
} from '../domain/post-fields.js';
import { PostContent } from '../schemas/posts.js';
import type { Arrival } from '../domain/arrival.js';
import type { PostsTable } from './schema.js';

type PostColumns = Selectable<PostsTable>;

/** The columns a post is placed and dated by: every writer sets them itself. */
type PlacementColumn = 'id' | 'wall_id' | 'feed_id' | 'created_at' | 'updated_at';

/** The columns the registry lists: all but the placement and the revision (which starts random: newPostRevision). */
type RegistryColumn = Exclude<keyof PostColumns, PlacementColumn | 'rev'>;

type DefaultedColumns = { [C in Exclude<keyof PostColumns, PlacementColumn>]: PostColumns[C] };

/** Not `true` but the names left out, when the registry and the posts table do not list the same columns. */
type SameColumns<A, B> = [Exclude<A, B> | Exclude<B, A>] extends [never] ? true : Exclude<A, B> | Exclude<B, A>;
// A column of the posts table that the registry does not list (or the reverse) fails here.
const registryListsEveryColumn: SameColumns<RegistryColumn, keyof RegisteredDefaults> = true;
void registryListsEveryColumn;
/** Not `true` but the flags whose column is not a number (0/1). */
type NumberFlags = { [C in FlagColumn]: PostColumns[C] extends number ? never : C }[FlagColumn];
// A registry flag on a column that does not hold 0/1 fails here.
const flagsAreNumbers: [NumberFlags] extends [never] ? true : NumberFlags = true;
void flagsAreNumbers;

/**
 * The revision a new post starts at: random, so a post made again under the
 * id of one deleted before (an import of a purged wall keeps ids) never
 * starts at a revision its predecessor had. Every update then adds one (a
 * store trigger: migration 0014); rendered fragments are kept per revision.
 */
export function newPostRevision(): number {
  return randomInt(1, 2 ** 47);
}

/**
 * A new row holding the value of every other column when the post's source
 * does not give one. A function returning a literal, not a spread of a
 * constant: rows of one shape built this way keep a large import ~110 MB
 * lower at its peak (300,000 posts: 224 MB against 337 MB).
 */
export function postDefaults(): DefaultedColumns {
  // each value is the registry's (`satisfies`: a default that differs does not compile)
  return {
    external_id: null,
    upstream_hash: null,
    network_name: '',
    post_type: 0,
    content: '',
    picture: '',
    file: '',
    file_original: '',
    file_thumb: '',
    media_file: '',
    link_url: '',
    author_name: '',
    username: '',
    user_picture: '',
    score: null,
    rating: null,
    highlight: 0,
    pin: 0,
    tags: '',
    location: '',
    media: 'text',
    hidden: 0,
    has_cta: 0,
    cta_color: '',
    cta_background: '',
    cta_status: 0,
    cta_url: '',
    cta_text: '',
    children: '[]',
    alt: '',
    state: 'approved',
    decided_by: null,
    decided_at: null,
    decision_reason: null,
    decision_detail: null,
    repost: 0,
    reply: 0,
    sensitive: 0,
    media_state: null,
    lang: null,
    author_bot: 0,
    author_created_at: null,
    text_hash: null,
    rights_state: null,
    rights_hold: 0,
    rev: newPostRevision(),
  } satisfies RegisteredDefaults & { rev: number };
}

/** The defaults, for reading. */
export const POST_DEFAULTS: Readonly<DefaultedColumns> = Object.freeze(postDefaults());

/** A post's content as the management API and the data file name it. */
export type PostContentFields = { [F in keyof typeof PostContent]: Static<(typeof PostContent)[F]> };

/** The columns holding exactly a value of type T. */
type ColumnOf<T> = {
  [C in keyof PostColumns]: [PostColumns[C]] extends [T] ? ([T] extends [PostColumns[C]] ? C : never) : never;
}[keyof PostColumns];

/** The column behind each content field (of the same type): the registry's. */
export const POST_CONTENT_COLUMNS = CONTENT_COLUMNS satisfies {
  [F in keyof PostContentFields]: ColumnOf<PostContentFields[F]>;
};
// A content field of the registry that PostContent does not have fails here.
const contentFieldsArePostContent: SameColumns<keyof typeof CONTENT_COLUMNS, keyof PostContentFields> = true;
void contentFieldsArePostContent;

/** Each content field and its column, in PostContent's order (the order the APIs and the data file write them). */
const CONTENT = (Object.keys(PostContent) as (keyof PostContentFields)[]).map(
  (field) => [field, POST_CONTENT_COLUMNS[field]] as [keyof PostContentFields, keyof PostColumns],
);

/** The content fields of a stored post. */
export function postContentOf(row: PostColumns): PostContentFields {
  return Object.fromEntries(CONTENT.map(([field, column]) => [field, row[column]])) as PostContentFields;
}

/**
 * Writes the content fields given into `row` (those left out keep its value).
 * In place: the data-file loader builds a row per post of files of millions.
 */
export function assignPostContent<R extends Partial<PostColumns>>(row: R, fields: Partial<PostContentFields>): R {
  const target = row as Record<string, unknown>;
  for (const [field, column] of CONTENT) {
    const value = fields[field];
    if (value !== undefined) target[column] = value;
  }
  return row;
}

/** The registry's flags of a stored post, as booleans (the management record names them so). */
export function postFlagsOf(row: Pick<PostColumns, FlagColumn>): Record<FlagColumn, boolean> {
  const flags = {} as Record<FlagColumn, boolean>;
  for (const c of FLAG_COLUMNS) flags[c] = row[c] !== 0;
  return flags;
}

/** The registry's flags that are set on a stored post, each `true` (the data file writes only those: absent is false). */
export function setPostFlagsOf(row: Pick<PostColumns, FlagColumn>): Partial<Record<FlagColumn, true>> {
  const flags: Partial<Record<FlagColumn, true>> = {};
  for (const c of FLAG_COLUMNS) if (row[c] !== 0) flags[c] = true;
  return flags;
}

/** Sets on `row` the registry's flags a data-file post says are true (the others keep their default, 0). */
export function assignPostFlags(row: Partial<PostColumns>, fields: Partial<Record<FlagColumn, boolean>>): void {
  for (const c of FLAG_COLUMNS) if (fields[c] === true) row[c] = 1;
}

/**
 * The columns an upstream edit may change (the registry's `upstream`).
 * Moderation state — state and its decision, hidden, pin, highlight, the
 * call-to-action and product tags — and created_at are never touched by an
 * update (a rejected post stays rejected).
 */
export { UPSTREAM_COLUMNS };

/** A call-to-action as every API names it. */
export interface Cta {
  color: string;
  background: string;
  status: number;
  url: string;
  text: string;
}

type CtaColumns = Pick<PostColumns, 'has_cta' | 'cta_color' | 'cta_background' | 'cta_status' | 'cta_url' | 'cta_text'>;

/** The columns of a call-to-action; null clears it. */
export function ctaColumns(cta: Cta | null): CtaColumns {
  return cta === null
    ? {
        has_cta: 0,
        cta_color: POST_DEFAULTS.cta_color,
        cta_background: POST_DEFAULTS.cta_background,
        cta_status: POST_DEFAULTS.cta_status,
        cta_url: POST_DEFAULTS.cta_url,
        cta_text: POST_DEFAULTS.cta_text,
      }
    : {
        has_cta: 1,
        cta_color: cta.color,
        cta_background: cta.background,
        cta_status: cta.status,
        cta_url: cta.url,
        cta_text: cta.text,
      };
}

/** The call-to-action of a stored post, or null. */
export function ctaOf(row: CtaColumns): Cta | null {
  return row.has_cta === 1
    ? {
        color: row.cta_color,
        background: row.cta_background,
        status: row.cta_status,
        url: row.cta_url,
        text: row.cta_text,
      }
    : null;
}

/** The columns of a moderation decision (a rule's, a check's wait, or the mode's: `by` null, undated). */
export function decisionColumns(a: Arrival, now: number) {
  return {
    state: a.state,
    decided_by: a.by,
    decided_at: a.by === null ? null : now,
    decision_reason: a.reason,
    decision_detail: a.detail ? JSON.stringify(a.detail) : null,
  };
}
