// Every stored field of a post, in one registry: what each column holds when
// nothing sets it, whether upstream writes it (and how it counts in a post's
// fingerprint), the content field it backs, and the boolean flags with their
// names in the management record, the data file and the moderation rules.
// The lists other modules used to keep by hand are derived from it; the
// store checks it against the posts table at compile time
// (src/store/post-columns.ts). Adding a field: CONTRIBUTING.md.

/** A migration's name (`NNNN_what`, src/store/migrations.ts). */
export type MigrationName = `${number}_${string}`;

/**
 * How an upstream column counts in a post's fingerprint
 * (src/ingest/upstream-hash.ts):
 * - `'always'`: its value, always — a column every stored fingerprint has.
 * - `{ since, as }`: a column added by migration `since`: it counts only when
 *   it differs from its default — `'value'` its value, `'flag'` `{ column: 1 }` —
 *   so a post without it keeps the fingerprint stored before the migration
 *   (no rewrite), and a post that has it is rewritten once, with it, when
 *   next read.
 */
export type Fingerprint = 'always' | { since: MigrationName; as: 'value' | 'flag' };

/** A 0/1 column that every API reads as a boolean, under the same name. */
export interface FlagField {
  /** the management record's description of it (src/schemas/posts.ts) */
  description: string;
  /** the moderation rules see it (a rule of the same kind judges it: src/domain/rules.ts) */
  rule: boolean;
}

export interface PostField {
  column: string;
  /** its value when the post's source does not give one */
  default: string | number | null;
  /** upstream writes it: an upstream edit may change it, a moderator's never does; absent: not upstream's */
  upstream?: Fingerprint;
  /** the content field it backs, as the management API and the data file name it (src/schemas/posts.ts PostContent) */
  content?: string;
  /**
   * a 0/1 flag: a boolean in the management record (under its column's name),
   * in the data file (written only when set; absent: false) and, `rule`, in
   * what the moderation rules see
   */
  flag?: FlagField;
  /** the embed shows it (src/presenters/embed.ts reads it) */
  embed?: boolean;
}

/**
 * Every column of a post but those its writer always sets itself (id,
 * wall_id, feed_id, created_at, updated_at and the revision `rev`), in the
 * order of the fingerprint: `'always'` columns first in this order, then the
 * later ones each in this order. Never reorder or retype an upstream column:
 * every stored fingerprint would change (test/domain/post-fields.test.ts).
 */
export const POST_FIELDS = [
  { column: 'external_id', default: null },
  { column: 'upstream_hash', default: null },
  { column: 'network_name', default: '', upstream: 'always', content: 'networkName', embed: true },
  { column: 'post_type', default: 0, upstream: 'always', content: 'postType' },
  { column: 'content', default: '', upstream: 'always', content: 'content', embed: true },
  { column: 'picture', default: '', upstream: 'always', content: 'picture', embed: true },
  { column: 'file', default: '', upstream: 'always', content: 'file', embed: true },
  { column: 'file_original', default: '', upstream: 'always', content: 'fileOriginal' },
  { column: 'file_thumb', default: '', upstream: 'always', content: 'fileThumb', embed: true },
  { column: 'media_file', default: '', upstream: 'always', content: 'mediaFile', embed: true },
  { column: 'link_url', default: '', upstream: 'always', content: 'linkUrl', embed: true },
  { column: 'author_name', default: '', upstream: 'always', content: 'authorName', embed: true },
  { column: 'username', default: '', upstream: 'always', content: 'username', embed: true },
  { column: 'user_picture', default: '', upstream: 'always', content: 'userPicture', embed: true },
  { column: 'score', default: null, upstream: 'always', content: 'score' },
  { column: 'rating', default: null, upstream: 'always', content: 'rating' },
  { column: 'highlight', default: 0, embed: true },
  { column: 'pin', default: 0, embed: true },
  { column: 'tags', default: '', upstream: 'always', content: 'tags' },
  { column: 'location', default: '', upstream: 'always', content: 'location' },
  { column: 'media', default: 'text', upstream: 'always', content: 'media', embed: true },
  { column: 'hidden', default: 0 },
  { column: 'has_cta', default: 0, embed: true },
  { column: 'cta_color', default: '', embed: true },
  { column: 'cta_background', default: '', embed: true },
  { column: 'cta_status', default: 0 },
  { column: 'cta_url', default: '', embed: true },
  { column: 'cta_text', default: '', embed: true },
  { column: 'children', default: '[]', upstream: 'always', embed: true },
  { column: 'alt', default: '', upstream: { since: '0008_media_alt', as: 'value' }, content: 'alt', embed: true },
  { column: 'state', default: 'approved' },
  { column: 'decided_by', default: null },
  { column: 'decided_at', default: null },
  { column: 'decision_reason', default: null },
  { column: 'decision_detail', default: null },
  {
    column: 'repost',
    default: 0,
    upstream: { since: '0012_repost_reply', as: 'flag' },
    flag: { description: 'it arrived as a boost/repost (the `repost` rule judges it)', rule: true },
  },
  {
    column: 'reply',
    default: 0,
    upstream: { since: '0012_repost_reply', as: 'flag' },
    flag: { description: 'it answers another post upstream (the `reply` rule judges it)', rule: true },
  },
  {
    column: 'sensitive',
    default: 0,
    upstream: { since: '0019_post_sensitive', as: 'flag' },
    flag: {
      description:
        'flagged sensitive upstream: a content warning, sensitive media or a moderation label (the `sensitive` rule judges it)',
      rule: true,
    },
  },
  // the media worker's summary of the post's pictures (migration 0020; src/domain/media-sources.ts); null: not looked at yet
  { column: 'media_state', default: null },
  // the language the text is written in (migration 0024; src/domain/language.ts): detected, not upstream's; null: unknown
  { column: 'lang', default: null, embed: true },
  // spam signals (migration 0026, src/domain/spam.ts)
  {
    column: 'author_bot',
    default: 0,
    upstream: { since: '0026_spam_signals', as: 'flag' },
    flag: { description: 'its author is flagged a bot upstream (the `account` rule judges it)', rule: true },
  },
  // when the author's account was made (epoch ms), where the network says; null: it does not (the `account` rule)
  { column: 'author_created_at', default: null, upstream: { since: '0026_spam_signals', as: 'value' } },
  // the SimHash of the text (16 hex digits; '' too short to compare; null: not computed) for the `duplicate` rule
  { column: 'text_hash', default: null },
  // rights management (migration 0034, src/domain/rights.ts): the post's rights state (null: never asked), and 1 while
  // its wall requires rights it lacks (set by the store at arrival and by the rights service)
  { column: 'rights_state', default: null },
  { column: 'rights_hold', default: 0 },
] as const satisfies readonly PostField[];

type Registered = (typeof POST_FIELDS)[number];

/** The columns upstream writes (an upstream edit may change them). */
export type UpstreamColumn = Extract<Registered, { upstream: Fingerprint }>['column'];
/** The 0/1 flags read as booleans. */
export type FlagColumn = Extract<Registered, { flag: FlagField }>['column'];
/** The flags the moderation rules see. */
export type RuleFlagColumn = Extract<Registered, { flag: { rule: true } }>['column'];
/** Each registered column's default, as a literal type (src/store/post-columns.ts checks postDefaults against it). */
export type RegisteredDefaults = { [F in Registered as F['column']]: F['default'] };
/** The content field → its column. */
export type ContentColumns = { [F in Extract<Registered, { content: string }> as F['content']]: F['column'] };

const fields: readonly PostField[] = POST_FIELDS;

/** The columns upstream writes, in the registry's order. */
export const UPSTREAM_COLUMNS = fields.filter((f) => f.upstream !== undefined).map((f) => f.column) as UpstreamColumn[];

/** The upstream columns every fingerprint counts, in order. */
export const ALWAYS_FINGERPRINTED = fields
  .filter((f) => f.upstream === 'always')
  .map((f) => f.column) as UpstreamColumn[];

/** The upstream columns that came later: each counts only when it differs from its default, in order. */
export const LATER_COLUMNS = fields.flatMap((f) =>
  typeof f.upstream === 'object' ? [{ column: f.column as UpstreamColumn, as: f.upstream.as, default: f.default }] : [],
);

/** The 0/1 flags read as booleans, in order (management record, data file). */
export const FLAG_COLUMNS = fields.filter((f) => f.flag !== undefined).map((f) => f.column) as FlagColumn[];

/** The flags the moderation rules see. */
export const RULE_FLAG_COLUMNS = fields.filter((f) => f.flag?.rule === true).map((f) => f.column) as RuleFlagColumn[];

/** Each flag's description in the management record. */
export const FLAG_DESCRIPTIONS = Object.fromEntries(
  fields.filter((f) => f.flag !== undefined).map((f) => [f.column, f.flag?.description ?? '']),
) as Record<FlagColumn, string>;

/** The column behind each content field. */
export const CONTENT_COLUMNS = Object.fromEntries(
  fields.filter((f) => f.content !== undefined).map((f) => [f.content, f.column]),
) as ContentColumns;
