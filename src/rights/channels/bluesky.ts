// Asking on Bluesky: the request is a post replying to the author's post,
// written into the brand's repository with the connection's app password
// (com.atproto.server.createSession with the handle, the session kept in the
// runtime's memory and refreshed — or made again — when the PDS says the
// token expired). The reply names the thread's root and the post as its
// parent (their CIDs read with app.bsky.feed.getPosts), and carries facets:
// the author's handle as a mention (Bluesky tells them of the reply anyway),
// hashtags as tags and links as links. The answers are the direct replies
// to the request (app.bsky.feed.getPostThread, depth 1); an answer is
// followed by reading it again (getPosts: absent once deleted).
//
// An author who blocks the brand's account is never asked: the post's
// author view says so (`viewer.blockedBy`), or — when the post cannot be
// read at all — their profile does (app.bsky.actor.getProfile).
//
// A Bluesky post holds at most 300 graphemes (and 3,000 bytes): a longer
// request is refused before anything is sent.
import { createHash } from 'node:crypto';
import { parseInstant } from '../../ingest/normalize.js';
import { BLUESKY_ENTRYWAY } from '../../connections/networks.js';
import {
  AuthorBlocksError,
  ChannelError,
  type ChannelContext,
  type HeardReply,
  type RightsChannel,
} from './channel.js';
import { callJson, isObject } from './http.js';

type Json = Record<string, unknown>;

/** app.bsky.feed.post's limits on `text`. */
export const BLUESKY_MAX_GRAPHEMES = 300;
export const BLUESKY_MAX_BYTES = 3000;

/** What reading the answers needs: the request's record. */
interface BlueskyRef {
  uri: string;
  cid: string;
}

interface Session {
  did: string;
  handle: string;
  accessJwt: string;
  refreshJwt: string;
  /** where the account's repository is (its DID document's PDS), else the server it signed in on */
  pds: string;
}

const base = (url: string) => url.replace(/\/+$/, '');

const graphemes = new Intl.Segmenter('en', { granularity: 'grapheme' });

/** How many graphemes (what a reader counts as characters) a text holds. */
export function graphemeCount(text: string): number {
  let n = 0;
  for (const _ of graphemes.segment(text)) n++;
  return n;
}

/** The record key of an at:// URI (its last part). */
const rkeyOf = (uri: string) => uri.slice(uri.lastIndexOf('/') + 1);

/** The bsky.app link of a post by `actor` (a handle, else its DID). */
export const bskyPostUrl = (actor: string, uri: string) =>
  `https://bsky.app/profile/${encodeURIComponent(actor)}/post/${encodeURIComponent(rkeyOf(uri))}`;

function signIn(ctx: ChannelContext): { server: string; identifier: string; password: string } {
  const identifier = (ctx.credential.accountName ?? '').trim().replace(/^@/, '');
  if (identifier === '') throw new ChannelError('the Bluesky connection names no handle: set its account name');
  const password = ctx.credential.accessToken;
  if (!password) throw new ChannelError('the Bluesky connection holds no app password: reconnect it');
  return { server: base(ctx.credential.instance || BLUESKY_ENTRYWAY), identifier, password };
}

/** The session's key in the runtime's memory: one per connection and app password (a reconnect starts afresh). */
function memoryKey(ctx: ChannelContext, server: string, identifier: string, password: string): string {
  const secret = createHash('sha256').update(password).digest('hex').slice(0, 16);
  return `bluesky-rights:${ctx.credential.connectionId}:${server}:${identifier}:${secret}`;
}

/** The PDS a DID document names (`#atproto_pds`), when it names an http(s) one. */
function pdsOf(didDoc: unknown): string | null {
  if (!isObject(didDoc) || !Array.isArray(didDoc.service)) return null;
  for (const s of didDoc.service) {
    if (!isObject(s) || typeof s.id !== 'string' || !s.id.endsWith('#atproto_pds')) continue;
    if (typeof s.serviceEndpoint === 'string' && /^https?:\/\//.test(s.serviceEndpoint)) return base(s.serviceEndpoint);
  }
  return null;
}

function sessionOf(json: unknown, server: string, what: string): Session {
  if (
    !isObject(json) ||
    typeof json.did !== 'string' ||
    typeof json.accessJwt !== 'string' ||
    typeof json.refreshJwt !== 'string'
  )
    throw new ChannelError(`${what}: the server did not answer a session`);
  return {
    did: json.did,
    handle: typeof json.handle === 'string' ? json.handle : json.did,
    accessJwt: json.accessJwt,
    refreshJwt: json.refreshJwt,
    pds: pdsOf(json.didDoc) ?? server,
  };
}

async function createSession(ctx: ChannelContext): Promise<Session> {
  const { server, identifier, password } = signIn(ctx);
  const what = `signing in to Bluesky as ${identifier}`;
  const json = await callJson(ctx, {
    url: `${server}/xrpc/com.atproto.server.createSession`,
    method: 'POST',
    body: { identifier, password },
    what,
  });
  const session = sessionOf(json, server, what);
  ctx.memory.set(memoryKey(ctx, server, identifier, password), session);
  return session;
}

/** A new access token from the refresh token; null when the refresh token is spent too (sign in again). */
async function refreshSession(ctx: ChannelContext, old: Session): Promise<Session | null> {
  const { server, identifier, password } = signIn(ctx);
  try {
    const json = await callJson(ctx, {
      url: `${old.pds}/xrpc/com.atproto.server.refreshSession`,
      method: 'POST',
      headers: { authorization: `Bearer ${old.refreshJwt}` },
      what: 'renewing the Bluesky session',
    });
    const session = { ...sessionOf(json, old.pds, 'renewing the Bluesky session'), pds: old.pds };
    ctx.memory.set(memoryKey(ctx, server, identifier, password), session);
    return session;
  } catch (err) {
    if (err instanceof ChannelError && (err.credentialRefused || isExpired(err))) return null;
    throw err;
  }
}

const isExpired = (err: unknown) =>
  err instanceof ChannelError && (err.code === 'ExpiredToken' || err.code === 'InvalidToken');

/**
 * Calls the account's PDS with the session's token: a session is made when
 * there is none; an expired token is renewed (refreshSession, else a new
 * sign-in) and the call made once more.
 */
async function withSession<T>(ctx: ChannelContext, call: (s: Session) => Promise<T>): Promise<T> {
  const { server, identifier, password } = signIn(ctx);
  const cached = ctx.memory.get(memoryKey(ctx, server, identifier, password)) as Session | undefined;
  const session = cached ?? (await createSession(ctx));
  try {
    return await call(session);
  } catch (err) {
    if (!isExpired(err)) throw err;
    const renewed = (await refreshSession(ctx, session)) ?? (await createSession(ctx));
    return call(renewed);
  }
}

const auth = (s: Session) => ({ authorization: `Bearer ${s.accessJwt}` });

/** The post views of these URIs (absent: deleted, or its author blocks the account). */
async function getPosts(ctx: ChannelContext, s: Session, uris: string[], what: string): Promise<Json[]> {
  const q = new URLSearchParams(uris.map((u): [string, string] => ['uris', u]));
  const json = await callJson<Json>(ctx, {
    url: `${s.pds}/xrpc/app.bsky.feed.getPosts?${q}`,
    headers: auth(s),
    what,
  });
  return Array.isArray(json?.posts) ? json.posts.filter(isObject) : [];
}

/** The DID of an at:// URI's repository (`at://did:plc:…/app.bsky.feed.post/…`). */
const didOf = (uri: string) => /^at:\/\/(did:[^/]+)\//.exec(uri)?.[1] ?? null;

/** Whether a view's author (a post's `author`, a profile) blocks the session's account. */
const blocksViewer = (actor: unknown) => isObject(actor) && isObject(actor.viewer) && actor.viewer.blockedBy === true;

/** Whether the author `did` blocks the session's account, by their profile (a post they blocked is not shown). */
async function profileBlocks(ctx: ChannelContext, s: Session, did: string): Promise<boolean> {
  const profile = await callJson<Json>(ctx, {
    url: `${s.pds}/xrpc/app.bsky.actor.getProfile?${new URLSearchParams({ actor: did })}`,
    headers: auth(s),
    what: 'reading whether the author blocks the account',
    // an account gone or taken down says nothing of blocks
    gone: (status) => status === 400 || status === 404,
  });
  return blocksViewer(profile);
}

/** A strong reference (uri + cid) from a view or a record's reply field. */
function strongRef(v: unknown): BlueskyRef | null {
  return isObject(v) && typeof v.uri === 'string' && typeof v.cid === 'string' ? { uri: v.uri, cid: v.cid } : null;
}

/** UTF-8 byte range of text[from, to) (facets index bytes, as the lexicon says). */
function byteRange(text: string, from: number, to: number) {
  const byteStart = Buffer.byteLength(text.slice(0, from), 'utf8');
  return { byteStart, byteEnd: byteStart + Buffer.byteLength(text.slice(from, to), 'utf8') };
}

/**
 * The facets of a request's text: the author's handle as a mention of
 * their DID, hashtags as tags, http(s) links as links. Bluesky shows none of
 * them as such without a facet.
 */
export function requestFacets(text: string, author: { did: string; handle: string }): unknown[] {
  const facets: unknown[] = [];
  const mention = new RegExp(
    `(^|[^\\p{L}\\p{N}_@])(@${author.handle.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')})(?![\\p{L}\\p{N}_.-]*[\\p{L}\\p{N}_])`,
    'giu',
  );
  if (author.handle !== '')
    for (const m of text.matchAll(mention)) {
      const from = m.index + m[1]!.length;
      facets.push({
        index: byteRange(text, from, from + m[2]!.length),
        features: [{ $type: 'app.bsky.richtext.facet#mention', did: author.did }],
      });
    }
  for (const m of text.matchAll(/(^|[^\p{L}\p{N}_&#])(#([\p{L}\p{N}_]*\p{L}[\p{L}\p{N}_]*))/gu)) {
    const from = m.index + m[1]!.length;
    facets.push({
      index: byteRange(text, from, from + m[2]!.length),
      features: [{ $type: 'app.bsky.richtext.facet#tag', tag: m[3] }],
    });
  }
  for (const m of text.matchAll(/(^|\s|\()(https?:\/\/[^\s<>"]+[^\s<>".,;:!?)'])/gu)) {
    const from = m.index + m[1]!.length;
    facets.push({
      index: byteRange(text, from, from + m[2]!.length),
      features: [{ $type: 'app.bsky.richtext.facet#link', uri: m[2] }],
    });
  }
  return facets;
}

/** A post view as a heard reply; null when it is not a post this channel can read. */
function heard(view: Json): HeardReply | null {
  const author = isObject(view.author) ? view.author : null;
  const record = isObject(view.record) ? view.record : null;
  if (typeof view.uri !== 'string' || !author || typeof author.did !== 'string' || !record) return null;
  const handle = typeof author.handle === 'string' && author.handle !== 'handle.invalid' ? author.handle : author.did;
  return {
    id: view.uri,
    url: bskyPostUrl(handle, view.uri),
    text: typeof record.text === 'string' ? record.text : '',
    authorRef: author.did,
    at: parseInstant(record.createdAt) ?? parseInstant(view.indexedAt) ?? 0,
    // a Bluesky post is not edited in place; a changed record is read as it is now
    editedAt: null,
  };
}

export const blueskyChannel: RightsChannel = {
  connection: 'bluesky',
  postNetworks: ['Bluesky'],

  async send(ctx, post, text) {
    const count = graphemeCount(text);
    if (count > BLUESKY_MAX_GRAPHEMES)
      throw new ChannelError(
        `the request is ${count} characters long; a Bluesky post holds at most ${BLUESKY_MAX_GRAPHEMES}: shorten the request template`,
      );
    if (Buffer.byteLength(text, 'utf8') > BLUESKY_MAX_BYTES)
      throw new ChannelError(
        `the request is ${Buffer.byteLength(text, 'utf8')} bytes long; a Bluesky post holds at most ${BLUESKY_MAX_BYTES}: shorten the request template`,
      );
    if (!post.externalId.startsWith('at://'))
      throw new ChannelError(`the post's id ${JSON.stringify(post.externalId)} is not a Bluesky at:// URI`);
    return withSession(ctx, async (s) => {
      const [view] = await getPosts(ctx, s, [post.externalId], 'reading the post');
      const authorDid = didOf(post.externalId);
      const blocked = view ? blocksViewer(view.author) : authorDid !== null && (await profileBlocks(ctx, s, authorDid));
      if (blocked) throw new AuthorBlocksError(`@${s.handle} on Bluesky`);
      const parent = view ? strongRef(view) : null;
      const author = view && isObject(view.author) ? view.author : null;
      if (!view || !parent || !author || typeof author.did !== 'string')
        throw new ChannelError('the post is no longer on Bluesky (deleted, or its author blocks the account)');
      const record = isObject(view.record) ? view.record : {};
      // a reply's thread keeps its root; a post that replies to nothing is the root itself
      const root = (isObject(record.reply) ? strongRef(record.reply.root) : null) ?? parent;
      const handle = typeof author.handle === 'string' && author.handle !== 'handle.invalid' ? author.handle : '';
      const facets = requestFacets(text, { did: author.did, handle });
      const created = await callJson<Json>(ctx, {
        url: `${s.pds}/xrpc/com.atproto.repo.createRecord`,
        method: 'POST',
        headers: auth(s),
        body: {
          repo: s.did,
          collection: 'app.bsky.feed.post',
          record: {
            $type: 'app.bsky.feed.post',
            text,
            createdAt: new Date().toISOString(),
            reply: { root, parent },
            ...(facets.length > 0 ? { facets } : {}),
          },
        },
        what: 'posting the request on Bluesky',
      });
      const ref = strongRef(created);
      if (!ref) throw new ChannelError('Bluesky did not say which post the request became');
      return { id: ref.uri, url: bskyPostUrl(s.handle, ref.uri), ref, authorRef: author.did };
    });
  },

  async replies(ctx, request) {
    return withSession(ctx, async (s) => {
      const q = new URLSearchParams({ uri: request.id, depth: '1', parentHeight: '0' });
      const json = await callJson<Json>(ctx, {
        url: `${s.pds}/xrpc/app.bsky.feed.getPostThread?${q}`,
        headers: auth(s),
        what: 'reading the answers',
      });
      const thread = isObject(json?.thread) ? json.thread : null;
      if (!thread || thread.$type === 'app.bsky.feed.defs#notFoundPost')
        throw new ChannelError('the request is no longer on Bluesky (deleted?)');
      const replies = Array.isArray(thread.replies) ? thread.replies : [];
      return replies
        .filter(isObject)
        .map((r) => (isObject(r.post) ? r.post : null))
        .filter((p): p is Json => {
          const record = p && isObject(p.record) ? p.record : null;
          const parent = record && isObject(record.reply) ? strongRef(record.reply.parent) : null;
          return parent?.uri === request.id;
        })
        .map(heard)
        .filter((r): r is HeardReply => r !== null)
        .sort((a, b) => a.at - b.at);
    });
  },

  async reply(ctx, _request, replyId) {
    return withSession(ctx, async (s) => {
      const [view] = await getPosts(ctx, s, [replyId], 'reading the answer again');
      return view && view.uri === replyId ? heard(view) : null;
    });
  },
};
