// Rights management's one service: asking (a reply through a connection, or
// by hand), hearing the answer (the watcher's listen step), expiring
// unanswered requests, recording an answer by hand, and the wall's asking
// rule. The rules are src/domain/rights.ts; the SQL is src/store/rights.ts;
// the networks are src/rights/channels/. Every state change writes
// post_rights, its evidence event and posts.rights_state/rights_hold in one
// transaction, so the public views, the change log and webhooks follow it.
import type { Kysely } from 'kysely';
import {
  answerOf,
  askRefusal,
  authorKey,
  DAY_MS,
  requestText,
  stateAfterAnswer,
  type RightsMethod,
  type RightsState,
} from '../domain/rights.js';
import { isUsable } from '../domain/connections.js';
import { credentialOf } from '../connections/secrets.js';
import type { Fetcher } from '../net/fetcher.js';
import { findConnection, listConnections, markConnectionFailed, type ConnectionRow } from '../store/connections.js';
import type { Database } from '../store/schema.js';
import {
  addOptOut,
  addRightsEvent,
  findOptOut,
  findPostRights,
  findRightsSettings,
  putRequest,
  requestsToday,
  updatePostRights,
  askedPosts,
  type AskedPostRow,
  type PostRightsRow,
  type StoredRightsSettings,
} from '../store/rights.js';
import {
  AuthorBlocksError,
  ChannelError,
  type AskedPost,
  type ChannelContext,
  type HeardReply,
  type RightsChannel,
} from './channels/channel.js';
import { blueskyChannel } from './channels/bluesky.js';
import { mastodonChannel } from './channels/mastodon.js';
import { pixelfedChannel } from './channels/pixelfed.js';
import { redditChannel } from './channels/reddit.js';
import { threadsChannel } from './channels/threads.js';
import { xChannel } from './channels/x.js';
import { youtubeChannel } from './channels/youtube.js';
import { applyRightsState } from './state.js';

/** The networks Wallery asks on by a reply; every other network is asked by hand. */
export const CHANNELS: readonly RightsChannel[] = [
  mastodonChannel,
  blueskyChannel,
  pixelfedChannel,
  xChannel,
  threadsChannel,
  youtubeChannel,
  redditChannel,
];

/** How often a request waiting for its answer is listened to by default (RIGHTS_LISTEN_SECONDS; a channel may ask for longer: listenEveryMs). */
export const LISTEN_MS = 60_000;

/** How often a channel's requests waiting for their answer are read: the deps' pace, or the channel's own when longer. */
const listenEvery = (deps: Pick<RightsDeps, 'listenMs'>, channel: RightsChannel): number =>
  Math.max(deps.listenMs ?? LISTEN_MS, channel.listenEveryMs ?? 0);
/** How often a grant is read again (an edit, a deletion), and for how long after the answer. */
export const FOLLOW_MS = 60 * 60_000;
export const FOLLOW_FOR_MS = 30 * DAY_MS;

export interface RightsDeps {
  db: Kysely<Database>;
  secretKey: Buffer | null;
  fetcher: Fetcher;
  /** per-runtime memory of the channels (sessions) */
  memory: Map<string, unknown>;
  now: () => number;
  /** default CHANNELS (tests may give their own) */
  channels?: readonly RightsChannel[];
  /** how often a waiting request is read (RIGHTS_LISTEN_SECONDS); default LISTEN_MS; a channel's longer listenEveryMs wins */
  listenMs?: number;
  signal?: AbortSignal;
  /**
   * Told of each wall whose posts' rights changed, after the change
   * commits: this process's caches (the v2 answers, the embed's stream) hear
   * of it at once, as of an ingestion write (ChangeBus.wallChanged).
   */
  announce?: (wallId: number) => void;
}

/** The channel that asks about posts of this networkName, or null (asked by hand). */
export function channelFor(deps: Pick<RightsDeps, 'channels'>, postNetwork: string): RightsChannel | null {
  const n = postNetwork.toLowerCase();
  return (deps.channels ?? CHANNELS).find((c) => c.postNetworks.some((p) => p.toLowerCase() === n)) ?? null;
}

export type RequestOutcome =
  | {
      postId: number;
      ok: true;
      state: 'requested';
      method: RightsMethod;
      /** the request's text (a request by hand: what the operator copies) */
      text: string;
      requestUrl: string | null;
    }
  | {
      postId: number;
      ok: false;
      /** not_found: no such post; refused: the rules say no (opt-out, limits, state); failed: the network did */
      status: 'not_found' | 'refused' | 'failed';
      reason: string;
    };

/** The connection that asks on a channel's network for an account: the settings' choice, the feed's own, else the first usable one. */
async function askingConnection(
  db: Kysely<Database>,
  post: AskedPostRow,
  channel: RightsChannel,
  settings: StoredRightsSettings,
): Promise<ConnectionRow | null> {
  const fits = (c: ConnectionRow | undefined): c is ConnectionRow =>
    c !== undefined && c.account_id === post.account_id && c.network === channel.connection && isUsable(c.status);
  const chosen = settings.connections[channel.connection];
  if (chosen !== undefined) {
    const c = await findConnection(db, chosen);
    return fits(c) ? c : null;
  }
  const feedConnection = typeof post.connector?.connectionId === 'number' ? post.connector.connectionId : undefined;
  if (feedConnection !== undefined) {
    const c = await findConnection(db, feedConnection);
    if (fits(c)) return c;
  }
  return (await listConnections(db, post.account_id)).find(fits) ?? null;
}

const asked = (p: AskedPostRow): AskedPost => ({
  id: p.id,
  externalId: p.external_id ?? '',
  network: p.network_name,
  username: p.username,
  authorName: p.author_name,
  linkUrl: p.link_url,
  connector: p.connector,
});

function channelContext(deps: RightsDeps, connection: ConnectionRow): ChannelContext {
  return {
    credential: credentialOf(connection, deps.secretKey),
    fetcher: deps.fetcher,
    memory: deps.memory,
    ...(deps.signal ? { signal: deps.signal } : {}),
  };
}

/** A channel's failure: the connection marked when its credentials were refused; the message to show. */
async function channelFailure(deps: RightsDeps, connection: ConnectionRow, err: unknown): Promise<string> {
  if (!(err instanceof ChannelError)) throw err;
  if (err.credentialRefused)
    await markConnectionFailed(deps.db, connection.id, 'failing', `${err.message}; check its permissions`, deps.now());
  return err.message;
}

/**
 * Asks for the rights to each post: through a reply on its network when a
 * channel and a usable connection exist (unless `method` is manual), else by
 * hand (the text is for the operator to send). Each post is refused on its
 * own (opt-out, daily limits, a state that cannot be asked); the others go on.
 */
export async function requestRights(
  deps: RightsDeps,
  postIds: readonly number[],
  options: { actor: string; method?: RightsMethod; onlyByReply?: boolean },
): Promise<RequestOutcome[]> {
  const posts = new Map((await askedPosts(deps.db, postIds)).map((p) => [p.id, p]));
  // each account's settings read once a call (a selection is one account's posts, mostly)
  const settings = new Map<number, StoredRightsSettings>();
  const out: RequestOutcome[] = [];
  for (const postId of postIds) {
    const post = posts.get(postId);
    if (!post) {
      out.push({ postId, ok: false, status: 'not_found', reason: `post ${postId} does not exist` });
      continue;
    }
    if (!settings.has(post.account_id))
      settings.set(post.account_id, await findRightsSettings(deps.db, post.account_id));
    out.push(await requestOne(deps, post, settings.get(post.account_id)!, options));
  }
  return out;
}

/** Asks about one post: its author's opt-out and today's counts read afresh (the call's earlier requests count). */
async function requestOne(
  deps: RightsDeps,
  post: AskedPostRow,
  settings: StoredRightsSettings,
  options: { actor: string; method?: RightsMethod; onlyByReply?: boolean },
): Promise<RequestOutcome> {
  const refused = (reason: string): RequestOutcome => ({ postId: post.id, ok: false, status: 'refused', reason });
  if (post.exempt)
    return refused('a custom post or an upload needs no rights (the brand’s own, or its poster agreed to the terms)');
  const now = deps.now();
  const author = authorKey(post.network_name, post.username);
  const [optOut, counts] = await Promise.all([
    findOptOut(deps.db, post.account_id, author),
    requestsToday(deps.db, post.account_id, author, now),
  ]);
  const refusal = askRefusal({
    optedOut: optOut?.reason ?? null,
    state: post.rights_state,
    askedAuthorToday: counts.author,
    askedToday: counts.total,
    settings,
  });
  if (refusal !== null) return refused(refusal);
  const text = requestText(settings, { username: post.username, authorName: post.author_name });

  const channel = options.method === 'manual' ? null : channelFor(deps, post.network_name);
  const connection = channel ? await askingConnection(deps.db, post, channel, settings) : null;
  if (options.onlyByReply && (!channel || !connection))
    return refused(
      `no ${channel ? `usable ${channel.connection} connection` : 'reply channel'} to ask on ${post.network_name}`,
    );
  let sent: Awaited<ReturnType<RightsChannel['send']>> | null = null;
  if (channel && connection) {
    try {
      sent = await channel.send(channelContext(deps, connection), asked(post), text, {
        visibility: settings.mastodonVisibility,
      });
    } catch (err) {
      if (err instanceof AuthorBlocksError) {
        await addOptOut(deps.db, {
          accountId: post.account_id,
          author,
          reason: 'blocked',
          postId: post.id,
          note: err.message,
          now,
        });
        return refused(err.message);
      }
      return { postId: post.id, ok: false, status: 'failed', reason: await channelFailure(deps, connection, err) };
    }
  }
  const method: RightsMethod = sent ? 'reply' : 'manual';
  await deps.db.transaction().execute(async (trx) => {
    await putRequest(trx, {
      post_id: post.id,
      account_id: post.account_id,
      wall_id: post.wall_id,
      network: post.network_name,
      author,
      author_name: post.author_name,
      post_url: post.link_url,
      state: 'requested',
      method,
      connection_id: sent && connection ? connection.id : null,
      request_text: text,
      request_id: sent?.id ?? null,
      request_url: sent?.url ?? null,
      request_ref: sent ? JSON.stringify(sent.ref) : null,
      author_ref: sent?.authorRef ?? null,
      requested_at: now,
      requested_by: options.actor,
      expires_at: now + settings.expireDays * DAY_MS,
      answer_id: null,
      answer_url: null,
      answer_text: null,
      answered_at: null,
      answer_edited_at: null,
      decided_by: null,
      note: null,
      listen_at: sent && channel ? now + listenEvery(deps, channel) : null,
      lease_owner: null,
      lease_until: null,
      updated_at: now,
    });
    await addRightsEvent(trx, {
      postId: post.id,
      accountId: post.account_id,
      at: now,
      kind: 'requested',
      actor: options.actor,
      detail: { method, text, ...(sent ? { id: sent.id, url: sent.url } : {}) },
    });
    await applyRightsState(trx, { id: post.id, wallId: post.wall_id }, 'requested', now);
  });
  deps.announce?.(post.wall_id);
  return { postId: post.id, ok: true, state: 'requested', method, text, requestUrl: sent?.url ?? null };
}

/** What an operator records by hand. */
export interface RecordedAnswer {
  state: 'granted' | 'declined' | 'revoked';
  actor: string;
  note: string | null;
  /** where the answer was given (an e-mail's reference, a link) */
  url: string | null;
}

/**
 * Records an answer given outside a reply Wallery reads (a network without a
 * channel, an e-mail): the state set, the evidence kept with who recorded
 * it. A decline puts the author on the opt-out list; a revoke needs a grant.
 * Returns the new state, or a reason it cannot be recorded.
 */
export async function recordAnswer(
  deps: Pick<RightsDeps, 'db' | 'now' | 'announce'>,
  postId: number,
  answer: RecordedAnswer,
): Promise<{ ok: true; state: RightsState } | { ok: false; status: 'not_found' | 'refused'; reason: string }> {
  const [post] = await askedPosts(deps.db, [postId]);
  if (!post) return { ok: false, status: 'not_found', reason: `post ${postId} does not exist` };
  if (answer.state === 'revoked' && post.rights_state !== 'granted')
    return {
      ok: false,
      status: 'refused',
      reason: `only granted rights can be revoked; this post's are ${post.rights_state ?? 'not asked for'}`,
    };
  const now = deps.now();
  await deps.db.transaction().execute(async (trx) => {
    const row = await findPostRights(trx, postId);
    if (!row) {
      // an answer given without a request Wallery made: the evidence starts here
      await putRequest(trx, {
        post_id: post.id,
        account_id: post.account_id,
        wall_id: post.wall_id,
        network: post.network_name,
        author: authorKey(post.network_name, post.username),
        author_name: post.author_name,
        post_url: post.link_url,
        state: answer.state,
        method: 'manual',
        connection_id: null,
        request_text: '',
        request_id: null,
        request_url: null,
        request_ref: null,
        author_ref: null,
        requested_at: now,
        requested_by: answer.actor,
        expires_at: null,
        answer_id: null,
        answer_url: answer.url,
        answer_text: answer.note,
        answered_at: now,
        answer_edited_at: null,
        decided_by: answer.actor,
        note: answer.note,
        listen_at: null,
        lease_owner: null,
        lease_until: null,
        updated_at: now,
      });
    } else {
      await updatePostRights(trx, postId, {
        state: answer.state,
        ...(answer.state !== 'revoked' ? { answer_url: answer.url ?? row.answer_url, answered_at: now } : {}),
        decided_by: answer.actor,
        note: answer.note,
        listen_at: null,
        updated_at: now,
      });
    }
    await addRightsEvent(trx, {
      postId,
      accountId: post.account_id,
      at: now,
      kind: 'recorded',
      actor: answer.actor,
      detail: {
        state: answer.state,
        ...(answer.url ? { url: answer.url } : {}),
        ...(answer.note ? { note: answer.note } : {}),
      },
    });
    if (answer.state === 'declined')
      await addOptOut(trx, {
        accountId: post.account_id,
        author: authorKey(post.network_name, post.username),
        reason: 'declined',
        postId,
        note: answer.note,
        now,
      });
    await applyRightsState(trx, { id: post.id, wallId: post.wall_id }, answer.state, now);
  });
  deps.announce?.(post.wall_id);
  return { ok: true, state: answer.state };
}

// ---------- the watcher's steps ----------

/** What one listen found, for the watcher's report and log. */
export interface ListenResult {
  postId: number;
  /** the state after listening (unchanged when nothing was heard) */
  state: RightsState;
  changed: boolean;
  /** a failure in words (the network could not be read) */
  error?: string;
}

/** Applies a change of state heard upstream, with its evidence, in one transaction. */
async function applyHeard(
  deps: RightsDeps,
  row: PostRightsRow,
  next: RightsState,
  kind: 'granted' | 'declined' | 'revoked' | 'answer_edited',
  reply: HeardReply | null,
  listenAt: number | null,
  now: number,
): Promise<void> {
  await deps.db.transaction().execute(async (trx) => {
    await updatePostRights(trx, row.post_id, {
      state: next,
      ...(reply
        ? {
            answer_id: reply.id,
            answer_url: reply.url,
            answer_text: reply.text,
            ...(kind === 'answer_edited'
              ? { answer_edited_at: reply.editedAt ?? now }
              : { answered_at: reply.at || now }),
          }
        : {}),
      decided_by: 'reply',
      listen_at: listenAt,
      updated_at: now,
    });
    await addRightsEvent(trx, {
      postId: row.post_id,
      accountId: row.account_id,
      at: now,
      kind,
      actor: 'reply',
      detail: {
        state: next,
        ...(reply ? { id: reply.id, url: reply.url, text: reply.text } : { reason: 'the author deleted the answer' }),
      },
    });
    if (next === 'declined')
      await addOptOut(trx, {
        accountId: row.account_id,
        author: row.author,
        reason: 'declined',
        postId: row.post_id,
        note: null,
        now,
      });
    if (next !== row.state) await applyRightsState(trx, { id: row.post_id, wallId: row.wall_id }, next, now);
  });
  if (next !== row.state) deps.announce?.(row.wall_id);
}

/**
 * Listens once to a request sent by a reply: a waiting request takes the
 * original author's newest reply that answers; a grant is read again and
 * follows its edits, and its deletion revokes it. Only the author's replies
 * count (the account upstream that wrote the post: row.author_ref).
 */
export async function listenTo(deps: RightsDeps, row: PostRightsRow): Promise<ListenResult> {
  const now = deps.now();
  const same = (state: RightsState, listenAt: number | null, error?: string): ListenResult => ({
    postId: row.post_id,
    state,
    changed: false,
    ...(error ? { error } : {}),
  });
  const channel = channelFor(deps, row.network);
  const connection = row.connection_id !== null ? await findConnection(deps.db, row.connection_id) : undefined;
  if (!channel || !connection || !isUsable(connection.status) || row.request_id === null) {
    // nothing to listen with any more: the request waits for an answer recorded by hand
    await updatePostRights(deps.db, row.post_id, { listen_at: null, updated_at: now });
    return same(row.state, null, 'the connection the request was sent with is gone or no longer works');
  }
  const settings = await findRightsSettings(deps.db, row.account_id);
  const ctx = channelContext(deps, connection);
  const request = { id: row.request_id, ref: row.request_ref ? (JSON.parse(row.request_ref) as unknown) : null };
  const followUntil = (row.answered_at ?? now) + FOLLOW_FOR_MS;
  const nextFollow = now + FOLLOW_MS <= followUntil ? now + FOLLOW_MS : null;
  try {
    if (row.state === 'requested') {
      const answers = (await channel.replies(ctx, request))
        .filter((r) => r.authorRef === row.author_ref)
        .map((r) => ({ r, answer: answerOf(r.text, settings) }))
        .filter((a) => a.answer !== null);
      const last = answers[answers.length - 1];
      if (!last) {
        const next = now + listenEvery(deps, channel);
        await updatePostRights(deps.db, row.post_id, { listen_at: next, updated_at: now });
        return same(row.state, next);
      }
      const next = last.answer === 'grant' ? 'granted' : 'declined';
      await applyHeard(deps, row, next, next, last.r, next === 'granted' ? now + FOLLOW_MS : null, now);
      return { postId: row.post_id, state: next, changed: true };
    }
    if (row.state === 'granted' && row.answer_id !== null) {
      const reply = await channel.reply(ctx, request, row.answer_id);
      if (reply === null) {
        await applyHeard(deps, row, 'revoked', 'revoked', null, null, now);
        return { postId: row.post_id, state: 'revoked', changed: true };
      }
      if (reply.text !== row.answer_text) {
        const next = stateAfterAnswer('granted', answerOf(reply.text, settings)) ?? 'granted';
        await applyHeard(
          deps,
          row,
          next,
          next === 'granted' ? 'answer_edited' : next === 'declined' ? 'declined' : 'revoked',
          reply,
          next === 'granted' ? nextFollow : null,
          now,
        );
        return { postId: row.post_id, state: next, changed: next !== row.state };
      }
      await updatePostRights(deps.db, row.post_id, { listen_at: nextFollow, updated_at: now });
      return same(row.state, nextFollow);
    }
    await updatePostRights(deps.db, row.post_id, { listen_at: null, updated_at: now });
    return same(row.state, null);
  } catch (err) {
    const message = await channelFailure(deps, connection, err);
    const next = now + listenEvery(deps, channel);
    await updatePostRights(deps.db, row.post_id, { listen_at: next, updated_at: now });
    return same(row.state, next, message);
  }
}

/** Requests unanswered past their expiry become expired (they may be asked again). */
export async function expireRequests(
  deps: Pick<RightsDeps, 'db' | 'now' | 'announce'>,
  rows: readonly PostRightsRow[],
): Promise<number> {
  const now = deps.now();
  for (const row of rows)
    await deps.db.transaction().execute(async (trx) => {
      await updatePostRights(trx, row.post_id, { state: 'expired', listen_at: null, updated_at: now });
      await addRightsEvent(trx, {
        postId: row.post_id,
        accountId: row.account_id,
        at: now,
        kind: 'expired',
        actor: 'watcher',
        detail: { state: 'expired', reason: 'no answer before the request expired' },
      });
      await applyRightsState(trx, { id: row.post_id, wallId: row.wall_id }, 'expired', now);
    });
  for (const wallId of new Set(rows.map((r) => r.wall_id))) deps.announce?.(wallId);
  return rows.length;
}
