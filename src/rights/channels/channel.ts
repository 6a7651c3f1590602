// A rights channel: how Wallery asks an author on one network and hears the
// answer — a reply to the post through the account's connection, then the
// replies to that reply. One small interface per network (mastodon.ts,
// bluesky.ts, …); networks without one are asked by hand (the request's text
// copied by the operator, the answer recorded in the console).
//
// A channel never touches the store and never decides a state: it sends, and
// reports what it reads upstream. The service (src/rights/service.ts) keeps
// only the original author's answer and applies the rules of
// src/domain/rights.ts.
import type { ConnectorCredential } from '../../ingest/connector.js';
import type { Fetcher } from '../../net/fetcher.js';

/** The post asked about, as stored. */
export interface AskedPost {
  id: number;
  /** the upstream id (a Mastodon status id on the feed's instance, a Bluesky at:// URI, …) */
  externalId: string;
  /** the posts' networkName (`Mastodon`, `Bluesky`) */
  network: string;
  username: string;
  authorName: string;
  /** its permalink upstream */
  linkUrl: string;
  /** the feed's connector settings (its instance, …) */
  connector: Record<string, unknown> | null;
}

export interface ChannelContext {
  credential: ConnectorCredential;
  /** the SSRF-guarded fetcher (INGEST_ALLOW_PRIVATE_NETWORKS decides what it may reach) */
  fetcher: Fetcher;
  /** per-runtime memory (sessions), never stored */
  memory: Map<string, unknown>;
  signal?: AbortSignal;
}

/** What a sent request is upstream. */
export interface SentRequest {
  /** the request reply's upstream id */
  id: string;
  /** its link, for the evidence */
  url: string;
  /** what the channel needs later to read the replies to it (JSON-serializable) */
  ref: unknown;
  /** the post's author upstream (an account id, a DID): only their answer counts */
  authorRef: string;
}

/** A reply read upstream. */
export interface HeardReply {
  id: string;
  url: string;
  /** plain text (no markup) */
  text: string;
  /** its author upstream, comparable with SentRequest.authorRef */
  authorRef: string;
  /** when it was posted (epoch ms) */
  at: number;
  /** its last edit (epoch ms); null when never edited */
  editedAt: number | null;
}

export interface RightsChannel {
  /** the connection network that asks (`mastodon`, `bluesky`) */
  connection: string;
  /** the posts' networkName values it can ask about */
  postNetworks: readonly string[];
  /**
   * How often a request waiting for its answer is read (default LISTEN_MS,
   * a minute): longer where each read costs quota or credits (YouTube's
   * daily units, X's paid reads, Reddit's per-minute allowance).
   */
  listenEveryMs?: number;
  /** whether a Mastodon-style visibility applies (the settings' mastodonVisibility) */
  send(
    ctx: ChannelContext,
    post: AskedPost,
    text: string,
    options: { visibility: 'public' | 'unlisted' | 'direct' },
  ): Promise<SentRequest>;
  /** the replies to a sent request as they stand now, from anyone, oldest first */
  replies(ctx: ChannelContext, request: { id: string; ref: unknown }): Promise<HeardReply[]>;
  /** a reply as it stands now (to follow an edit); null when it was deleted */
  reply(ctx: ChannelContext, request: { id: string; ref: unknown }, replyId: string): Promise<HeardReply | null>;
}

/** A network refused or failed a channel's call: what it said, in words (never a secret). */
export class ChannelError extends Error {
  override name = 'ChannelError';
  constructor(
    message: string,
    /** the connection's credentials were refused (401/403): the connection is marked */
    readonly credentialRefused = false,
    /** the network's own error code, when it names one (atproto `ExpiredToken`, …): what a channel may retry on */
    readonly code: string | null = null,
  ) {
    super(message);
  }
}

/**
 * The author blocks the account that would ask (Mastodon's relationship
 * `blocked_by`, Bluesky's `viewer.blockedBy`): nothing is sent, and the
 * service puts the author on the opt-out list for good.
 */
export class AuthorBlocksError extends ChannelError {
  override name = 'AuthorBlocksError';
  constructor(readonly account: string) {
    super(`the author blocks ${account}: they are put on the opt-out list and never asked`);
  }
}
