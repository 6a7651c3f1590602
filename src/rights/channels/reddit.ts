// Asking on Reddit: the request is a comment on the post (POST
// /api/comment, a form with thing_id=t3_<post>, api_type=json) made with
// the Reddit connection's signed-in token (scope submit; read to read the
// answers). The answers are the replies to that comment
// (GET /comments/<post>?comment=<request>&depth=2); a grant is read again
// with /api/info?id=t1_<answer>: once deleted or removed its author or text
// reads "[deleted]"/"[removed]", and it counts as gone. Whose answer
// counts: the post's author, by name (Reddit's comments name their author
// by name).
//
// Reddit allows 100 requests a minute per OAuth client and slows new
// accounts' comments ("you are doing that too much"): a waiting request is
// read every 5 minutes, and a refused comment says Reddit's words.
import { REDDIT_OAUTH, REDDIT_USER_AGENT } from '../../ingest/reddit.js';
import { hostOf } from '../../ingest/url-parts.js';
import { ChannelError, type AskedPost, type ChannelContext, type HeardReply, type RightsChannel } from './channel.js';
import { callJson, isObject } from './http.js';

type Json = Record<string, unknown>;

interface RedditRef {
  base: string;
  /** the post's id (the article the comments are on) */
  article: string;
}

const REDDIT_ID = /^[a-z0-9]{1,16}$/;
const GONE_TEXT = new Set(['[deleted]', '[removed]']);

const strip = (url: string) => url.replace(/\/+$/, '');
const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const children = (listing: unknown): Json[] =>
  isObject(listing) && isObject(listing.data) && Array.isArray(listing.data.children)
    ? listing.data.children.filter(isObject)
    : [];

function headers(ctx: ChannelContext): Record<string, string> {
  const token = ctx.credential.accessToken;
  if (!token) throw new ChannelError('the Reddit connection holds no access token: reconnect it');
  const name = (ctx.credential.accountName ?? '').replace(/^u\//, '');
  return {
    authorization: `bearer ${token}`,
    // Reddit asks for a descriptive agent naming the account
    'user-agent': name ? `${REDDIT_USER_AGENT.replace(/\)$/, '')}; by /u/${name})` : REDDIT_USER_AGENT,
  };
}

const baseOf = (post: AskedPost) =>
  strip(typeof post.connector?.apiBaseUrl === 'string' ? post.connector.apiBaseUrl : REDDIT_OAUTH);

const authorOf = (username: string) => username.trim().replace(/^\/?u\//i, '');

const linkOf = (comment: Json, article: string) => {
  const permalink = str(comment.permalink);
  return permalink.startsWith('/')
    ? `https://www.reddit.com${permalink}`
    : `https://www.reddit.com/comments/${article}/_/${str(comment.id)}/`;
};

/** A comment (`t1` data) → a reply; null when it is gone or unreadable. */
function heard(comment: Json, article: string): HeardReply | null {
  const id = str(comment.id);
  const author = str(comment.author);
  const body = str(comment.body);
  if (!REDDIT_ID.test(id) || author === '' || GONE_TEXT.has(author) || GONE_TEXT.has(body.trim())) return null;
  const created = Number(comment.created_utc);
  return {
    id,
    url: linkOf(comment, article),
    text: body,
    authorRef: author,
    at: Number.isFinite(created) ? Math.round(created * 1000) : 0,
    editedAt: typeof comment.edited === 'number' ? Math.round(comment.edited * 1000) : null,
  };
}

function refOf(request: { ref: unknown }): RedditRef {
  const ref = request.ref as RedditRef | null;
  if (!ref?.base || !ref.article) throw new ChannelError('the request names no Reddit post to read');
  return { base: strip(ref.base), article: ref.article };
}

export const redditChannel: RightsChannel = {
  connection: 'reddit',
  postNetworks: ['Reddit'],
  listenEveryMs: 5 * 60_000,

  async send(ctx, post, text) {
    const article = post.externalId.replace(/^t3_/, '');
    if (!REDDIT_ID.test(article)) throw new ChannelError(`the post's Reddit id ${post.externalId} is not one`);
    const author = authorOf(post.username);
    if (author === '' || GONE_TEXT.has(author)) throw new ChannelError('the post names no Reddit author to ask');
    const base = baseOf(post);
    const answer = await callJson<Json>(ctx, {
      url: `${base}/api/comment`,
      method: 'POST',
      headers: headers(ctx),
      form: { api_type: 'json', thing_id: `t3_${article}`, text },
      what: `commenting the request on ${hostOf(base)}`,
    });
    const json = isObject(answer?.json) ? answer.json : {};
    // Reddit's refusals come as 200 with [code, message, field] triples
    const errors = Array.isArray(json.errors) ? json.errors.filter(Array.isArray) : [];
    if (errors.length > 0) {
      const said = errors.map((e) => str(e[1]) || str(e[0])).join('; ');
      throw new ChannelError(`Reddit refused the request's comment: ${said.slice(0, 300)}`);
    }
    const things = isObject(json.data) && Array.isArray(json.data.things) ? json.data.things.filter(isObject) : [];
    const comment = things.find((t) => t.kind === 't1' && isObject(t.data));
    const data = comment && isObject(comment.data) ? comment.data : null;
    const id = data ? str(data.id) : '';
    if (!data || !REDDIT_ID.test(id))
      throw new ChannelError(`${hostOf(base)} did not say which comment the request became`);
    const ref: RedditRef = { base, article };
    return { id, url: linkOf(data, article), ref, authorRef: author };
  },

  async replies(ctx, request) {
    const ref = refOf(request);
    const q = new URLSearchParams({ comment: request.id, depth: '2', limit: '100', sort: 'old', raw_json: '1' });
    const found = await callJson<unknown>(ctx, {
      url: `${ref.base}/comments/${encodeURIComponent(ref.article)}?${q}`,
      headers: headers(ctx),
      what: 'reading the answers',
    });
    // [the post's listing, the comments' listing]: the request, its replies in `replies`
    const listings = Array.isArray(found) ? found : [];
    const request_ = children(listings[1]).find((c) => c.kind === 't1' && isObject(c.data) && c.data.id === request.id);
    const replies = request_ && isObject(request_.data) ? children(request_.data.replies) : [];
    return replies
      .filter((c) => c.kind === 't1' && isObject(c.data))
      .flatMap((c) => heard(c.data as Json, ref.article) ?? [])
      .sort((a, b) => a.at - b.at);
  },

  async reply(ctx, request, replyId) {
    const ref = refOf(request);
    if (!REDDIT_ID.test(replyId)) return null;
    const found = await callJson<Json>(ctx, {
      url: `${ref.base}/api/info?id=t1_${replyId}&raw_json=1`,
      headers: headers(ctx),
      what: 'reading the answer again',
      nullOn: [404],
    });
    const comment = children(found).find((c) => c.kind === 't1' && isObject(c.data) && c.data.id === replyId);
    return comment ? heard(comment.data as Json, ref.article) : null;
  },
};
