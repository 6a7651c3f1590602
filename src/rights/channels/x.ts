// Asking on X: the request is a post replying to the post (POST /2/tweets
// with reply.in_reply_to_tweet_id), made with the X connection's OAuth 2.0
// user token (scope tweet.write; an app-only bearer token cannot post). The
// post is looked up first (GET /2/tweets/:id, expansions=author_id): its
// author's user id is whose answer counts, its conversation_id what the
// answers are searched in.
//
// The answers: recent search (GET /2/tweets/search/recent) for
// `conversation_id:<the conversation>`, since the request (since_id, while
// it is younger than the 7 days search takes), keeping the
// posts that reply to the request itself (referenced_tweets replied_to).
// Recent search covers 7 days: an answer is read within the listening
// interval, well inside it. A grant is read again with GET /2/tweets/:id:
// a "Not Found Error" means it was deleted; an edited post keeps its
// first id and lists its versions (edit_history_tweet_ids), the newest
// read for what it says now.
//
// X bills reads per post and limits recent search per 15 minutes, so a
// waiting request is read every 15 minutes, not every minute.
import { parseInstant } from '../../ingest/normalize.js';
import { hostOf } from '../../ingest/url-parts.js';
import { X_API } from '../../ingest/x.js';
import { ChannelError, type AskedPost, type ChannelContext, type HeardReply, type RightsChannel } from './channel.js';
import { callJson, isObject } from './http.js';

type Json = Record<string, unknown>;

/** What reading the answers needs: the API the request was posted on and the conversation it is in. */
interface XRef {
  base: string;
  conversation: string;
}

const REPLY_FIELDS = 'author_id,created_at,in_reply_to_user_id,edit_history_tweet_ids,referenced_tweets';
/** result pages of recent search read per listen, at most (100 posts each) */
const SEARCH_PAGES = 3;

const strip = (url: string) => url.replace(/\/+$/, '');
const arr = (v: unknown): Json[] => (Array.isArray(v) ? v.filter(isObject) : []);
const str = (v: unknown): string => (typeof v === 'string' ? v : '');
/** X escapes `&`, `<` and `>` in post text. */
const unescape = (text: string) => text.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');

/** When an X id was made (a snowflake: milliseconds since X's epoch in its high bits); null for an id that is none. */
function madeAt(id: string): number | null {
  if (!/^\d{1,20}$/.test(id)) return null;
  const ms = Number(BigInt(id) >> 22n) + 1_288_834_974_657;
  return ms > 1_288_834_974_657 ? ms : null;
}

/** Recent search refuses a since_id older than its 7 days: one made within this is sent. */
const SINCE_ID_WITHIN_MS = 6 * 86_400_000;

/** X ids are decimal snowflakes: compared as numbers of any length. */
function compareIds(a: string, b: string): number {
  if (a.length !== b.length) return a.length - b.length;
  return a < b ? -1 : a > b ? 1 : 0;
}

function tokenOf(ctx: ChannelContext): string {
  const token = ctx.credential.accessToken;
  if (!token) throw new ChannelError('the X connection holds no access token: reconnect it');
  // a pasted app-only bearer token names no account: X lets it read, never post
  if (!ctx.credential.accountId)
    throw new ChannelError(
      'the X connection is an app-only bearer token, which X does not let post: connect X by signing in (scope tweet.write) to ask by reply',
    );
  return token;
}

const auth = (ctx: ChannelContext) => ({ authorization: `Bearer ${tokenOf(ctx)}` });

/**
 * X's refusals of the connection (marked): 401, an app outside a Project or a
 * token X does not accept for the call. A 403 "Forbidden" with a detail (the
 * author limits who may reply, a duplicate) refuses this request only.
 */
function refusesCredentials(status: number, json: unknown): boolean {
  if (status === 401) return true;
  if (status !== 403 || !isObject(json)) return false;
  const type = str(json.type);
  return (
    json.reason === 'client-not-enrolled' ||
    type.endsWith('/client-not-enrolled') ||
    type.endsWith('/unsupported-authentication') ||
    json.title === 'Unsupported Authentication'
  );
}

/** An errors[] entry saying the post does not exist (deleted, or never was). */
const notFound = (e: Json) => e.title === 'Not Found Error' || str(e.type).endsWith('/resource-not-found');

const baseOf = (post: AskedPost) =>
  strip(typeof post.connector?.apiBaseUrl === 'string' ? post.connector.apiBaseUrl : X_API);

const postUrl = (id: string) => `https://x.com/i/web/status/${id}`;

function heard(tweet: Json): HeardReply | null {
  const id = str(tweet.id);
  const author = str(tweet.author_id);
  if (!/^\d+$/.test(id) || author === '') return null;
  const versions = Array.isArray(tweet.edit_history_tweet_ids) ? tweet.edit_history_tweet_ids : [];
  const at = parseInstant(tweet.created_at) ?? 0;
  return {
    id,
    url: postUrl(id),
    text: unescape(str(tweet.text)),
    authorRef: author,
    at,
    // an edit is a new version with its own id and time
    editedAt: versions.length > 1 ? at : null,
  };
}

/** A post as it stands (its newest version), or null when X says it is not found. */
async function lookUp(ctx: ChannelContext, base: string, id: string, fields: string, what: string) {
  const found = await callJson<Json>(ctx, {
    url: `${base}/2/tweets/${encodeURIComponent(id)}?tweet.fields=${fields}`,
    headers: auth(ctx),
    what,
    refusesCredentials,
  });
  if (isObject(found?.data)) return found.data;
  const errors = arr(found?.errors);
  if (errors.some(notFound)) return null;
  const said = errors.map((e) => str(e.detail) || str(e.title)).find((t) => t !== '');
  throw new ChannelError(`${what}: ${hostOf(base)} did not return the post${said ? ` (${said})` : ''}`);
}

export const xChannel: RightsChannel = {
  connection: 'x',
  postNetworks: ['X'],
  listenEveryMs: 15 * 60_000,

  async send(ctx, post, text) {
    const base = baseOf(post);
    if (!/^\d+$/.test(post.externalId)) throw new ChannelError(`the post's X id ${post.externalId} is not one`);
    const original = await lookUp(ctx, base, post.externalId, 'author_id,conversation_id', 'reading the post');
    if (original === null) throw new ChannelError('the post is no longer on X');
    const author = str(original.author_id);
    if (author === '') throw new ChannelError(`${hostOf(base)} did not say who wrote the post`);
    const sent = await callJson<Json>(ctx, {
      url: `${base}/2/tweets`,
      method: 'POST',
      headers: auth(ctx),
      body: { text, reply: { in_reply_to_tweet_id: post.externalId } },
      what: `posting the request on ${hostOf(base)}`,
      refusesCredentials,
    });
    const id = isObject(sent?.data) ? str(sent.data.id) : '';
    if (!/^\d+$/.test(id)) throw new ChannelError(`${hostOf(base)} did not say which post the request became`);
    const handle = (ctx.credential.accountName ?? '').replace(/^@/, '');
    const ref: XRef = { base, conversation: str(original.conversation_id) || post.externalId };
    return {
      id,
      url: /^[A-Za-z0-9_]{1,15}$/.test(handle) ? `https://x.com/${handle}/status/${id}` : postUrl(id),
      ref,
      authorRef: author,
    };
  },

  async replies(ctx, request) {
    const ref = request.ref as XRef | null;
    if (!ref?.base || !ref.conversation) throw new ChannelError('the request names no X conversation to read');
    const out = new Map<string, HeardReply>();
    let next = '';
    for (let page = 0; page < SEARCH_PAGES; page++) {
      const q = new URLSearchParams({
        query: `conversation_id:${ref.conversation} is:reply`,
        max_results: '100',
        'tweet.fields': REPLY_FIELDS,
      });
      // only what came after the request (X bills each post read), while X still takes the id
      const made = madeAt(request.id);
      if (made !== null && Date.now() - made < SINCE_ID_WITHIN_MS) q.set('since_id', request.id);
      if (next) q.set('next_token', next);
      const found = await callJson<Json>(ctx, {
        url: `${strip(ref.base)}/2/tweets/search/recent?${q}`,
        headers: auth(ctx),
        what: 'reading the answers',
        refusesCredentials,
      });
      for (const tweet of arr(found?.data)) {
        const toRequest = arr(tweet.referenced_tweets).some((r) => r.type === 'replied_to' && r.id === request.id);
        const reply = toRequest ? heard(tweet) : null;
        if (reply) out.set(reply.id, reply);
      }
      next = isObject(found?.meta) ? str(found.meta.next_token) : '';
      if (!next) break;
    }
    return [...out.values()].sort((a, b) => compareIds(a.id, b.id));
  },

  async reply(ctx, request, replyId) {
    const ref = request.ref as XRef | null;
    if (!ref?.base) throw new ChannelError('the request names no X API to read');
    const base = strip(ref.base);
    const tweet = await lookUp(ctx, base, replyId, REPLY_FIELDS, 'reading the answer again');
    if (tweet === null) return null;
    // an edited answer: its newest version says what it means now
    const versions = (Array.isArray(tweet.edit_history_tweet_ids) ? tweet.edit_history_tweet_ids : []).map(str);
    const newest = versions.reduce((a, b) => (compareIds(b, a) > 0 ? b : a), replyId);
    if (newest === replyId) return heard(tweet);
    const latest = await lookUp(ctx, base, newest, REPLY_FIELDS, 'reading the edited answer');
    return latest === null ? null : heard(latest);
  },
};
