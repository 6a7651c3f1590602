// Kysely table types. Every instant is stored as epoch milliseconds (an
// integer in both dialects), so ordering and date filters are plain integer
// comparisons and no dialect's date type leaks into the queries.
import type { Generated } from 'kysely';

import type { ChangeKind } from '../domain/changes.js';
import type { EventType } from '../domain/analytics.js';
import type {
  OptOutReason,
  RightsAutoRequest,
  RightsEventKind,
  RightsMethod,
  RightsRequirement,
  RightsState,
} from '../domain/rights.js';
import type { EmbedLayout, EmbedTheme, MediaKind, ModerationMode, Plan, PostState } from '../domain/lists.js';

export interface AccountsTable {
  id: Generated<number>;
  name: string;
  plan: Plan;
  daily_call_limit: number;
  created_at: number;
}

export interface UserKeysTable {
  id: Generated<number>;
  account_id: number;
  /** hex SHA-256 of the plaintext key; the plaintext is never stored */
  key_hash: string;
  /** first characters of the key, for operators to recognise it */
  prefix: string;
  created_at: number;
  last_used_at: number | null;
  revoked_at: number | null;
}

export interface WallsTable {
  id: Generated<number>;
  account_id: number;
  name: string;
  url: string;
  profanity: number;
  created_at: number;
  deleted_at: number | null;
  /** `manual`: ingested posts arrive pending (migration 0010) */
  moderation: ModerationMode;
  /** JSON of the wall's ordered moderation rules (src/domain/rules.ts); '[]' when none */
  rules: string;
  /** the embed's layout, theme and most columns when a page does not choose them; null: the embed's own (migration 0013) */
  layout: EmbedLayout | null;
  theme: EmbedTheme | null;
  columns: number | null;
  /** 1: any site may frame the hosted page when its key names no origins (migration 0018) */
  allow_framing: number;
  /** 1: the embed shows a post once its pictures are fetched (or given up on); 0 (default): at once, its originals until then (migration 0020) */
  media_wait: Generated<number>;
  /** JSON of the wall's branding (src/domain/branding.ts); null: none, the embed's own look (migration 0022) */
  branding: string | null;
  /** what the wall requires before it shows a post publicly: none | shoppable | all (migration 0034) */
  rights_required: Generated<RightsRequirement>;
  /** the wall's asking rule: off | approved | shoppable (migration 0034) */
  rights_auto: Generated<RightsAutoRequest>;
}

export interface FeedsTable {
  id: Generated<number>;
  wall_id: number;
  name: string;
  source: string;
  source_type: string;
  created_at: number | null;
  updated_at: number;
  /** JSON of ConnectorSettings (src/ingest/connector-settings.ts); null = no ingestion */
  connector: string | null;
  /** 0 stops ingestion for this feed; its posts stay */
  enabled: Generated<number>;
  /** overrides the wall's moderation mode; null = the wall's (migration 0010) */
  moderation: ModerationMode | null;
}

export interface PostsTable {
  id: Generated<number>;
  wall_id: number;
  feed_id: number;
  /** upstream id, for dedupe of ingested posts; null for imported/custom posts */
  external_id: string | null;
  /** ingested posts: fingerprint of the upstream fields last written; an update happens only when it changes */
  upstream_hash: string | null;
  network_name: string;
  post_type: number;
  content: string;
  picture: string;
  file: string;
  file_original: string;
  file_thumb: string;
  media_file: string;
  link_url: string;
  author_name: string;
  username: string;
  user_picture: string;
  score: number | null;
  rating: number | null;
  highlight: number;
  pin: number;
  tags: string;
  location: string;
  created_at: number;
  updated_at: number;
  media: MediaKind;
  hidden: number;
  /** 1 when a call-to-action is set; the cta_* columns are then meaningful */
  has_cta: number;
  cta_color: string;
  cta_background: string;
  cta_status: number;
  cta_url: string;
  cta_text: string;
  /** JSON array of { image, video, alt? } (`alt` only where there is one; never served in v2's childNode) */
  children: string;
  /** text alternative (alt text) of the post's main media (picture/file); '' when none */
  alt: string;
  /** moderation state (migration 0010): the public reads show only approved, not hidden posts */
  state: PostState;
  /** who made the last moderation decision: a token name, `cli` or `rule:<id>`; null when none was made */
  decided_by: string | null;
  decided_at: number | null;
  decision_reason: string | null;
  /** JSON of what an automatic rule found (src/domain/decision.ts; migration 0023); null for people's decisions, the mode and plain rules */
  decision_detail: string | null;
  /** ISO 639-1 code of the language the text is written in, detected by eld (migration 0024); null when unknown or not detected yet */
  lang: string | null;
  /** 1 when the post arrived as a boost/repost (migration 0012); ingested posts only */
  repost: number;
  /** 1 when the post answers another post upstream (migration 0012); ingested posts only */
  reply: number;
  /** 1 when upstream flagged the post sensitive: a content warning, sensitive media, a moderation label (migration 0019); ingested posts only */
  sensitive: number;
  /** starts random (newPostRevision), +1 by a store trigger on every update of the row (migration 0014): what a rendered fragment is valid for */
  rev: number;
  /** the post's media as a whole (migration 0020): null (not looked at yet) | none | pending | ready | partial | failed */
  media_state: PostMediaState | null;
  /** 1 when upstream flags the author a bot: Mastodon `bot`, Lemmy `bot_account` (migration 0026); ingested posts only */
  author_bot: number;
  /** when the author's account was made (epoch ms) where the network says: Mastodon, Bluesky, Lemmy (migration 0026); null otherwise */
  author_created_at: number | null;
  /** the text's 64-bit SimHash as 16 hex digits, '' when too short to compare, null when not computed (migration 0026; src/domain/simhash.ts) */
  text_hash: string | null;
  /** the post's rights state (src/domain/rights.ts; migration 0034); null: never asked */
  rights_state: RightsState | null;
  /** 1 while its wall requires rights the post lacks: kept off the public views like a hidden post (migration 0034) */
  rights_hold: number;
}

export type PostMediaState = 'none' | 'pending' | 'ready' | 'partial' | 'failed';
export type MediaItemState = 'pending' | 'ready' | 'failed' | 'refused' | 'skipped';

/** A stored picture (migration 0020), keyed by the SHA-256 of the bytes fetched. */
export interface MediaBlobsTable {
  hash: string;
  /** the detected type of the source: jpeg | png | gif | webp | avif */
  type: string;
  width: number;
  height: number;
  animated: number;
  has_alpha: number;
  /** ThumbHash, base64 */
  placeholder: string;
  /** JSON array of rendition widths, ascending */
  widths: string;
  /** the master's file name, e.g. master.jpg */
  master: string;
  bytes: number;
  created_at: number;
}

/** The image check of a stored picture (migration 0025), keyed like media_blobs by the hash of its bytes. */
/** A moderation provider's answer about a post (migration 0028). */
export interface ProviderChecksTable {
  post_id: number;
  /** the configured provider's name */
  provider: string;
  /** the model that answered, as the provider named it */
  model: string;
  /** openai | http */
  protocol: string;
  /** JSON [{ label, score }] */
  labels: string;
  checked_at: number;
}

export interface PictureChecksTable {
  hash: string;
  /** the classifier and its version that gave the scores (`nsfwjs mobilenet_v2 4.4.0`) */
  model: string;
  /** JSON of ClassScores (src/domain/image-rules.ts); null when the check failed */
  scores: string | null;
  /** perceptual hash, 16 hex digits; null when the check failed */
  phash: string | null;
  /** why the check failed; null when it did not */
  error: string | null;
  checked_at: number;
}

/** A picture a post shows, and where fetching it stands (migration 0020); also the media worker's queue. */
export interface PostMediaTable {
  id: Generated<number>;
  post_id: number;
  account_id: number;
  /** item:<n> | avatar (src/domain/media-sources.ts) */
  slot: string;
  source_url: string;
  state: MediaItemState;
  hash: string | null;
  reason: string | null;
  attempts: Generated<number>;
  next_attempt_at: Generated<number>;
  lease_owner: string | null;
  lease_until: number | null;
  updated_at: number;
}

export interface ProductsTable {
  id: Generated<number>;
  account_id: number;
  name: string;
  sku: string;
  price: number;
  currency_symbol: string;
  currency: string;
  discount: number;
  discount_currency_symbol: string;
  discount_currency: string;
  url: string;
  image: string;
  store_shop_name: string;
  store_product_id: string;
  store_product_type: string;
  created_at: number;
  updated_at: number;
}

export interface PostProductsTable {
  post_id: number;
  product_id: number;
  /** tag order on the post, from 0 */
  position: number;
  left_pct: number;
  top_pct: number;
}

export interface UsageDailyTable {
  account_id: number;
  /** UTC day as days since 1970-01-01 */
  day: number;
  calls: number;
}

export interface IdempotencyKeysTable {
  account_id: number;
  idem_key: string;
  post_id: number;
  created_at: number;
}

export interface OperatorTokensTable {
  id: Generated<number>;
  /** shown in the audit log */
  name: string;
  /** hex SHA-256 of the plaintext token; the plaintext is never stored */
  token_hash: string;
  /** first characters of the token, for operators to recognise it */
  prefix: string;
  created_at: number;
  last_used_at: number | null;
  revoked_at: number | null;
  /** admin | editor | moderator | viewer (src/domain/roles.ts) */
  role: Generated<string>;
  /** JSON list of the account ids the token is limited to; null = every account */
  account_ids: string | null;
}

export interface AuditLogTable {
  id: Generated<number>;
  at: number;
  /** null for writes made with the CLI on the store directly */
  token_id: number | null;
  token_name: string;
  /** e.g. `wall.update`, `posts.bulk` */
  action: string;
  /** account, user_key, wall, feed, post, product, operator_token */
  target_type: string;
  target_id: number | null;
  /** JSON: { before, after } (and details such as the post ids of a bulk action) */
  summary: string;
  /** the account the entry belongs to; null: none (operator tokens) or unknown */
  account_id: number | null;
}

export interface PublishableKeysTable {
  id: Generated<number>;
  wall_id: number;
  /** the first characters of the key, for people to recognise it */
  prefix: string;
  /** hex SHA-256 of the plaintext; the plaintext is never stored */
  key_hash: string;
  /** JSON list of normalised origins; [] = any origin */
  origins: string;
  created_at: number;
  revoked_at: number | null;
}

export interface Database {
  accounts: AccountsTable;
  user_keys: UserKeysTable;
  walls: WallsTable;
  feeds: FeedsTable;
  posts: PostsTable;
  products: ProductsTable;
  post_products: PostProductsTable;
  usage_daily: UsageDailyTable;
  idempotency_keys: IdempotencyKeysTable;
  operator_tokens: OperatorTokensTable;
  audit_log: AuditLogTable;
  feed_ingest_state: FeedIngestStateTable;
  publishable_keys: PublishableKeysTable;
  changes: ChangesTable;
  change_log: ChangeLogTable;
  analytics_daily: AnalyticsDailyTable;
  webhooks: WebhooksTable;
  webhook_deliveries: WebhookDeliveriesTable;
  media_blobs: MediaBlobsTable;
  post_media: PostMediaTable;
  picture_checks: PictureChecksTable;
  provider_checks: ProviderChecksTable;
  wall_submissions: WallSubmissionsTable;
  post_uploads: PostUploadsTable;
  upload_challenges: UploadChallengesTable;
  screen_states: ScreenStatesTable;
  screen_slides: ScreenSlidesTable;
  connections: ConnectionsTable;
  post_rights: PostRightsTable;
  rights_events: RightsEventsTable;
  rights_optouts: RightsOptOutsTable;
  rights_settings: RightsSettingsTable;
  oauth_states: OAuthStatesTable;
}

/** A wall's live screen state (migration 0030, src/domain/screen-control.ts). */
export interface ScreenStatesTable {
  wall_id: number;
  paused: Generated<number>;
  spotlight_post_id: number | null;
  spotlight_until: number | null;
  slide_id: number | null;
  slide_until: number | null;
  /** JSON list of post ids */
  hidden_post_ids: Generated<string>;
  layout: string | null;
  theme: string | null;
  qr: Generated<number>;
  /** JSON list of schedule entries */
  schedule: Generated<string>;
  version: Generated<number>;
  updated_at: number;
}

/** A wall's announcement or sponsor slide (migration 0030). */
export interface ScreenSlidesTable {
  id: Generated<number>;
  wall_id: number;
  title: string;
  body: string;
  image_url: string | null;
  sponsor: number;
  every_posts: number | null;
  starts_at: number | null;
  ends_at: number | null;
  created_at: number;
  updated_at: number;
}

/**
 * The change log (migration src/store/migrations/0015_changes.ts): a row per
 * change of a post, a wall's life or a feed's health, written by store
 * triggers in the changing transaction and numbered in commit order.
 */
export interface ChangesTable {
  /** position in commit order: a reader past it has seen every earlier change */
  seq: Generated<number>;
  account_id: number;
  wall_id: number;
  /** null for a wall's or a feed's change */
  post_id: number | null;
  /** the feed of a feed change, or the post's feed */
  feed_id: number | null;
  /** the connection of a connection change (migration 0032; its wall_id is 0) */
  connection_id: number | null;
  kind: ChangeKind;
  /** 1 when the post is approved and not hidden after the change */
  visible: number;
  /** when it was committed (ms) */
  at: number;
}

export interface ChangeLogTable {
  id: number;
  /** PostgreSQL: the last seq handed out (SQLite's AUTOINCREMENT keeps its own) */
  last_seq: number;
  /** every change up to this seq has been pruned: a cursor before it cannot be served */
  pruned_through: number;
}

/** Analytics counters: events of one type per wall, UTC day, post and product (migration 0016). */
export interface AnalyticsDailyTable {
  wall_id: number;
  /** UTC day as days since 1970-01-01 */
  day: number;
  type: EventType;
  /** the post (0: none, as for a wall load) */
  post_id: number;
  /** the product (0: none) */
  product_id: number;
  n: number;
}

/** Ingestion state of a feed with a connector (src/ingest/, src/store/ingest.ts). */
export interface FeedIngestStateTable {
  feed_id: number;
  /** JSON the connector returned as its cursor last time */
  cursor_json: string | null;
  /** the connector setting (feeds.connector JSON) that cursor and validators belong to */
  cursor_for: string | null;
  /** the URL the conditional GET validators belong to */
  validators_url: string | null;
  etag: string | null;
  last_modified: string | null;
  /** earliest instant of the next poll (ms) */
  next_poll_at: Generated<number>;
  /** current adaptive interval, seconds */
  interval_s: number;
  consecutive_failures: Generated<number>;
  /** 1 after repeated failures (still polled, with backoff; never disabled) */
  failing: Generated<number>;
  last_error: string | null;
  last_error_at: number | null;
  last_polled_at: number | null;
  last_success_at: number | null;
  last_new_posts: Generated<number>;
  last_updated_posts: Generated<number>;
  /** warnings of the last poll that read the feed (unreadable dates, …; migration 0007) */
  last_warnings: Generated<number>;
  /** the last warning and when it was given (kept until the next one) */
  last_warning: string | null;
  last_warning_at: number | null;
  /** which poller holds the feed, until when (ms) */
  lease_owner: string | null;
  lease_until: number | null;
}

export type WebhookState = 'active' | 'failing' | 'disabled';

/** A webhook endpoint of an account (migration 0017, src/webhooks/). */
export interface WebhooksTable {
  id: Generated<number>;
  account_id: number;
  url: string;
  /** JSON array of the event types sent */
  events: string;
  /** the signing secret's stored form (src/domain/secret-box.ts): encrypted when WEBHOOK_SECRET_KEY is set */
  secret: string;
  /** the secret before the last rotation (same stored form): it signs too until previous_secret_until */
  previous_secret: string | null;
  previous_secret_until: number | null;
  enabled: Generated<number>;
  state: Generated<WebhookState>;
  /** the change-log seq handled last: every event up to it was delivered or given up */
  last_seq: Generated<number>;
  /** earliest instant of the next attempt (ms) */
  next_attempt_at: Generated<number>;
  /** the event being retried (null: none failed yet) */
  head_seq: number | null;
  head_attempts: Generated<number>;
  /** when the head event first failed: given up 3 days after */
  head_first_failed_at: number | null;
  consecutive_failures: Generated<number>;
  last_error: string | null;
  last_error_at: number | null;
  last_success_at: number | null;
  disabled_at: number | null;
  /** which worker holds the endpoint, until when (ms) */
  lease_owner: string | null;
  lease_until: number | null;
  created_at: number;
  updated_at: number;
}

export type DeliveryStatus = 'delivered' | 'failed' | 'gave_up';

/** One delivery attempt (the delivery log). */
export interface WebhookDeliveriesTable {
  id: Generated<number>;
  webhook_id: number;
  event_id: string;
  /** the change-log seq (null for a test event) */
  seq: number | null;
  type: string;
  attempt: number;
  status: DeliveryStatus;
  http_status: number | null;
  latency_ms: number;
  /** short, never a secret or the response body */
  error: string | null;
  at: number;
  replay: Generated<number>;
}

/** A wall's submission page (migration 0029): attendees post to the wall from their phones. */
export interface WallSubmissionsTable {
  wall_id: number;
  /** 0 (default): the page answers 404, nothing is taken — the kill switch */
  enabled: number;
  /** the page's heading; null: the wall's name */
  title: string | null;
  /** the wall's terms, shown above the consent checkbox (plain text) */
  terms: string;
  consent_text: string;
  /** bumped whenever consent_text changes */
  consent_version: number;
  /** `queue`: every upload waits for a moderator; `wall`: the wall's mode and rules decide */
  moderation: 'queue' | 'wall';
  /** the page's language (src/domain/uploads.ts UPLOAD_LANGUAGES) */
  language: string;
  max_bytes: number;
  per_ip_per_hour: number;
  per_wall_per_minute: number;
  /** signs the page's proof-of-work challenges */
  challenge_key: string;
  updated_at: number;
}

/** An uploaded post's consent and deletion token (migration 0029); deleted with the post. */
export interface PostUploadsTable {
  post_id: number;
  wall_id: number;
  consent_version: number;
  consent_text: string;
  consented_at: number;
  /** SHA-256 (hex) of the author's private deletion token */
  delete_token_hash: string;
  /** keyed digest of the uploader's address */
  uploader_hash: string;
}

/** Proof-of-work challenges spent (migration 0029): a solution is taken once. */
export interface UploadChallengesTable {
  challenge: string;
  expires_at: number;
}

/** An account's credentials for a network (0031_connections): `secret` is sealed JSON. */
export interface ConnectionsTable {
  id: Generated<number>;
  account_id: number;
  network: string;
  name: string;
  auth_kind: string;
  secret: string;
  external_account_id: string | null;
  external_account_name: string | null;
  instance: string | null;
  scopes: Generated<string>;
  status: Generated<string>;
  status_detail: string | null;
  status_at: number | null;
  expires_at: number | null;
  refresh_expires_at: number | null;
  refreshed_at: number | null;
  expiry_warned_at: number | null;
  last_used_at: number | null;
  created_at: number;
  updated_at: number;
  /** 0033: the worker refreshing the token holds it */
  refresh_lease_owner: string | null;
  refresh_lease_until: number | null;
  /** 0033: the last refresh tried */
  refresh_attempt_at: number | null;
}

/** 0033: an OAuth sign-in under way (src/connections/oauth-flow.ts). */
export interface OAuthStatesTable {
  id: Generated<number>;
  /** SHA-256 (hex) of the `state` sent to the network */
  state_hash: string;
  account_id: number;
  network: string;
  connection_id: number | null;
  name: string;
  instance: string | null;
  /** sealed JSON: { codeVerifier?, clientId?, clientSecret? } */
  secret: string;
  redirect_uri: string;
  created_at: number;
  expires_at: number;
  /** the operator token that started the sign-in (migration 0035): the callback's audit entry names it */
  token_id: number | null;
  token_name: string | null;
}

/** A post ever asked for rights, with the evidence (migration 0034; src/domain/rights.ts). */
export interface PostRightsTable {
  post_id: number;
  account_id: number;
  wall_id: number;
  /** the post as it was asked about, kept if the post goes */
  network: string;
  /** src/domain/rights.ts authorKey: network:handle */
  author: string;
  author_name: string;
  post_url: string;
  state: RightsState;
  method: RightsMethod;
  connection_id: number | null;
  request_text: string;
  /** the request reply upstream; null for a request made by hand */
  request_id: string | null;
  request_url: string | null;
  /** JSON the channel needs to find answers (src/rights/channels/) */
  request_ref: string | null;
  /** the author upstream (an account id, a DID): only their answer counts */
  author_ref: string | null;
  requested_at: number;
  requested_by: string;
  expires_at: number | null;
  answer_id: string | null;
  answer_url: string | null;
  answer_text: string | null;
  answered_at: number | null;
  answer_edited_at: number | null;
  decided_by: string | null;
  note: string | null;
  listen_at: number | null;
  lease_owner: string | null;
  lease_until: number | null;
  updated_at: number;
}

/** One step of a post's rights evidence trail (migration 0034). */
export interface RightsEventsTable {
  id: Generated<number>;
  post_id: number;
  account_id: number;
  at: number;
  kind: RightsEventKind;
  actor: string;
  /** JSON: { state?, url?, id?, text?, note? } */
  detail: Generated<string>;
}

/** An author never asked again by an account (migration 0034). */
export interface RightsOptOutsTable {
  account_id: number;
  author: string;
  reason: OptOutReason;
  post_id: number | null;
  note: string | null;
  created_at: number;
}

/** An account's rights settings, JSON (migration 0034). */
export interface RightsSettingsTable {
  account_id: number;
  settings: string;
  updated_at: number;
}
