// Asking on Threads: the request is a reply to the post, made in Threads'
// two steps — a TEXT container with reply_to_id (POST /{user}/threads),
// then its publication (POST /{user}/threads_publish?creation_id=) — with
// the Threads connection's token (threads_content_publish and
// threads_manage_replies to post; replying to another account's post also
// needs threads_keyword_search, which the feeds already ask for). The
// answers are the replies to the request (GET /{request}/replies, scope
// threads_read_replies), a grant read again with GET /{id} (the Graph
// API's "does not exist" once deleted).
//
// Whose answer counts: Threads' replies name their author by username
// only (no stable user id is exposed on a reply), so the author is the
// post's username. A username can change: an author who renames before
// answering is not heard, and their answer is recorded by hand.
//
// Threads allows 1,000 API-published replies per profile a day; Meta
// suggests waiting before publishing a container, which a text container
// does not need (a publish refused as not ready says so, and asking again
// works).
import { parseInstant } from '../../ingest/normalize.js';
import { hostOf } from '../../ingest/url-parts.js';
import { THREADS_GRAPH_URL } from '../../ingest/meta/graph.js';
import { ChannelError, type AskedPost, type ChannelContext, type HeardReply, type RightsChannel } from './channel.js';
import { callJson, isObject } from './http.js';

type Json = Record<string, unknown>;

interface ThreadsRef {
  base: string;
}

const REPLY_FIELDS = 'id,text,username,timestamp,permalink';
/** pages of replies read per listen, at most */
const REPLY_PAGES = 3;

const strip = (url: string) => url.replace(/\/+$/, '');
const str = (v: unknown): string => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : '');

function tokenOf(ctx: ChannelContext): string {
  const token = ctx.credential.accessToken;
  if (!token) throw new ChannelError('the Threads connection holds no access token: reconnect it');
  return token;
}

const auth = (ctx: ChannelContext) => ({ authorization: `Bearer ${tokenOf(ctx)}` });

/** The Graph API error of an answer's body: its code and subcode. */
function graphError(json: unknown): { code: number | null; subcode: number | null; message: string } | null {
  const error = isObject(json) && isObject(json.error) ? json.error : null;
  if (!error) return null;
  const num = (v: unknown) => (typeof v === 'number' ? v : null);
  return { code: num(error.code), subcode: num(error.error_subcode), message: str(error.message) };
}

/**
 * The connection refused (marked): a token Threads does not take (code 190,
 * 102; Meta answers these with a 400) or a permission it lacks (10, 200–299).
 */
function refusesCredentials(status: number, json: unknown): boolean {
  const e = graphError(json);
  if (e?.code === 190 || e?.code === 102 || e?.code === 10) return true;
  if (e?.code !== null && e?.code !== undefined && e.code >= 200 && e.code <= 299) return true;
  return status === 401;
}

/** Code 100 subcode 33: the object does not exist (deleted), or cannot be loaded. */
function gone(status: number, json: unknown): boolean {
  const e = graphError(json);
  return status === 404 || (e?.code === 100 && (e.subcode === 33 || /does not exist/i.test(e.message)));
}

const baseOf = (post: AskedPost) =>
  strip(typeof post.connector?.apiBaseUrl === 'string' ? post.connector.apiBaseUrl : THREADS_GRAPH_URL);

function graphUrl(base: string, path: string, params: Record<string, string> = {}): string {
  const q = new URLSearchParams(params).toString();
  return `${strip(base)}/${path}${q ? `?${q}` : ''}`;
}

const handleOf = (username: string) => username.trim().replace(/^@/, '').toLowerCase();

function heard(item: unknown): HeardReply | null {
  if (!isObject(item)) return null;
  const id = str(item.id);
  const username = handleOf(str(item.username));
  if (id === '' || username === '') return null;
  return {
    id,
    url: str(item.permalink),
    text: str(item.text),
    authorRef: username,
    at: parseInstant(item.timestamp) ?? 0,
    // Threads says nothing of edits: the text read again tells
    editedAt: null,
  };
}

export const threadsChannel: RightsChannel = {
  connection: 'threads',
  postNetworks: ['Threads'],
  listenEveryMs: 5 * 60_000,

  async send(ctx, post, text) {
    const base = baseOf(post);
    const author = handleOf(post.username);
    if (author === '') throw new ChannelError('the post names no Threads username to ask');
    if (!/^\d+$/.test(post.externalId)) throw new ChannelError(`the post's Threads id ${post.externalId} is not one`);
    const user = ctx.credential.accountId && /^\d+$/.test(ctx.credential.accountId) ? ctx.credential.accountId : 'me';
    const where = hostOf(base);
    const container = await callJson<Json>(ctx, {
      url: graphUrl(base, `${user}/threads`),
      method: 'POST',
      headers: auth(ctx),
      form: { media_type: 'TEXT', text, reply_to_id: post.externalId },
      what: `preparing the request on ${where}`,
      refusesCredentials,
    });
    const creation = str(container?.id);
    if (creation === '') throw new ChannelError(`${where} did not say which container the request is`);
    const published = await callJson<Json>(ctx, {
      url: graphUrl(base, `${user}/threads_publish`),
      method: 'POST',
      headers: auth(ctx),
      form: { creation_id: creation },
      what: `publishing the request on ${where}`,
      refusesCredentials,
    });
    const id = str(published?.id);
    if (id === '') throw new ChannelError(`${where} did not say which post the request became`);
    // its link, for the evidence (the request stands without it)
    let url = '';
    try {
      const read = await callJson<Json>(ctx, {
        url: graphUrl(base, id, { fields: 'id,permalink' }),
        headers: auth(ctx),
        what: 'reading the request',
        refusesCredentials,
      });
      url = str(read?.permalink);
    } catch (err) {
      if (!(err instanceof ChannelError) || err.credentialRefused) throw err;
    }
    const ref: ThreadsRef = { base };
    return { id, url, ref, authorRef: author };
  },

  async replies(ctx, request) {
    const base = strip((request.ref as ThreadsRef | null)?.base ?? THREADS_GRAPH_URL);
    const out: HeardReply[] = [];
    let after = '';
    for (let page = 0; page < REPLY_PAGES; page++) {
      const params: Record<string, string> = { fields: REPLY_FIELDS, reverse: 'false' };
      if (after) params.after = after;
      const found = await callJson<Json>(ctx, {
        url: graphUrl(base, `${encodeURIComponent(request.id)}/replies`, params),
        headers: auth(ctx),
        what: 'reading the answers',
        refusesCredentials,
      });
      const data = Array.isArray(found?.data) ? found.data : [];
      out.push(...data.map(heard).filter((r): r is HeardReply => r !== null));
      const paging = isObject(found?.paging) ? found.paging : {};
      const cursors = isObject(paging.cursors) ? paging.cursors : {};
      after = typeof paging.next === 'string' ? str(cursors.after) : '';
      if (!after || data.length === 0) break;
    }
    return out.sort((a, b) => a.at - b.at);
  },

  async reply(ctx, request, replyId) {
    const base = strip((request.ref as ThreadsRef | null)?.base ?? THREADS_GRAPH_URL);
    const item = await callJson<Json>(ctx, {
      url: graphUrl(base, encodeURIComponent(replyId), { fields: REPLY_FIELDS }),
      headers: auth(ctx),
      what: 'reading the answer again',
      refusesCredentials,
      gone,
    });
    return heard(item);
  },
};
