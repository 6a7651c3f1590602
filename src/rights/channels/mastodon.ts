// Asking on Mastodon (and servers that speak its API): the request is a
// status replying to the post, posted with the connection's token
// (scope write:statuses) and mentioning the author so they are told; the
// answers are the replies to that status (GET /api/v1/statuses/:id/context),
// an answer followed by reading it again (its edits; a 404 once deleted).
//
// A status id is an id on one server. When the connection's server is not
// the feed's, the post is first found on the connection's server by its
// link (GET /api/v2/search?resolve=true), as any client replying to a
// remote post does.
//
// An author who blocks the connection's account is never asked: its
// relationship to them (GET /api/v1/accounts/relationships, `blocked_by`) is
// read before the reply is posted (a reply they blocked would reach no one).
//
// Pixelfed speaks the same API: its channel (pixelfed.ts) is this one's
// calls under the connection network `pixelfed`.
import { plainText, parseInstant } from '../../ingest/normalize.js';
import { hostOf } from '../../ingest/url-parts.js';
import {
  AuthorBlocksError,
  ChannelError,
  type AskedPost,
  type ChannelContext,
  type HeardReply,
  type RightsChannel,
} from './channel.js';
import { callJson, isObject } from './http.js';

type Json = Record<string, unknown>;

/** What reading the replies needs: the server the request was posted on and its status id there. */
interface MastodonRef {
  instance: string;
}

const base = (url: string) => url.replace(/\/+$/, '');

function serverOf(ctx: ChannelContext): string {
  const title = ctx.credential.network === 'pixelfed' ? 'Pixelfed' : 'Mastodon';
  if (!ctx.credential.instance) throw new ChannelError(`the ${title} connection names no server: set its instance`);
  if (!ctx.credential.accessToken)
    throw new ChannelError(`the ${title} connection holds no access token: reconnect it`);
  return base(ctx.credential.instance);
}

const auth = (ctx: ChannelContext) => ({ authorization: `Bearer ${ctx.credential.accessToken}` });

/** The status on the connection's server: itself when the feed reads that server, else found by its link. */
async function statusOnServer(ctx: ChannelContext, server: string, post: AskedPost): Promise<Json> {
  const feedServer = typeof post.connector?.instance === 'string' ? base(post.connector.instance) : '';
  if (feedServer !== '' && hostOf(feedServer).toLowerCase() === hostOf(server).toLowerCase()) {
    const status = await callJson<Json>(ctx, {
      url: `${server}/api/v1/statuses/${encodeURIComponent(post.externalId)}`,
      headers: auth(ctx),
      what: 'reading the post',
      nullOn: [404],
    });
    if (!isObject(status)) throw new ChannelError(`the post is no longer on ${hostOf(server)}`);
    return status;
  }
  const q = new URLSearchParams({ q: post.linkUrl, resolve: 'true', type: 'statuses', limit: '1' });
  const found = await callJson<Json>(ctx, {
    url: `${server}/api/v2/search?${q}`,
    headers: auth(ctx),
    what: `finding the post on ${hostOf(server)}`,
  });
  const status = Array.isArray(found?.statuses) ? found.statuses.find(isObject) : undefined;
  if (!status) throw new ChannelError(`${hostOf(server)} could not find the post by its link ${post.linkUrl}`);
  return status;
}

/**
 * Whether the author (their id on the connection's server) blocks the
 * connection's account. A server that cannot say (a token without
 * read:follows answers 403, a server without the call 404) is taken as no:
 * the reply is then posted as before.
 */
async function blocksUs(ctx: ChannelContext, server: string, authorId: string): Promise<boolean> {
  const relationships = await callJson<unknown[]>(ctx, {
    url: `${server}/api/v1/accounts/relationships?${new URLSearchParams({ 'id[]': authorId })}`,
    headers: auth(ctx),
    what: 'reading whether the author blocks the account',
    nullOn: [403, 404],
  });
  const mine = Array.isArray(relationships) ? relationships.find((r) => isObject(r) && r.id === authorId) : undefined;
  return isObject(mine) && mine.blocked_by === true;
}

/** The connection's account in words: `@harbor on social.example`. */
const accountOf = (ctx: ChannelContext, server: string) =>
  ctx.credential.accountName
    ? `@${ctx.credential.accountName.replace(/^@/, '')} on ${hostOf(server)}`
    : `the connection's account on ${hostOf(server)}`;

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Whether a text mentions the account `acct` (as the connection's server
 * names it: `user` for its own accounts, `user@domain` for others) as a
 * whole handle: `@ana`, `@ana@social.example`; not `@anabel`, nor
 * `@ana@other.example`. A server's own account may be written with any of
 * `localDomains` (the server's host, the host of the account's page).
 */
export function mentions(text: string, acct: string, localDomains: readonly string[]): boolean {
  const [user, domain] = acct.split('@') as [string, string | undefined];
  const domains = domain ? [domain] : localDomains.filter((d) => d !== '').map((d) => d.replace(/:\d+$/, ''));
  const at = domains.length === 0 ? '' : `(?:@(?:${domains.map(escape).join('|')}))${domain ? '' : '?'}`;
  const handle = `@${escape(user)}${at}`;
  return new RegExp(`(^|[^\\p{L}\\p{N}_@/])${handle}(?![\\p{L}\\p{N}_@]|[.-][\\p{L}\\p{N}])`, 'iu').test(text);
}

function heard(status: unknown): HeardReply | null {
  if (!isObject(status) || typeof status.id !== 'string' || !isObject(status.account)) return null;
  const account = status.account;
  if (typeof account.id !== 'string') return null;
  return {
    id: status.id,
    url: typeof status.url === 'string' ? status.url : typeof status.uri === 'string' ? status.uri : '',
    text: plainText(typeof status.content === 'string' ? status.content : ''),
    authorRef: account.id,
    at: parseInstant(status.created_at) ?? 0,
    editedAt: parseInstant(status.edited_at),
  };
}

export const mastodonChannel: RightsChannel = {
  connection: 'mastodon',
  postNetworks: ['Mastodon'],

  async send(ctx, post, text, { visibility }) {
    const server = serverOf(ctx);
    const status = await statusOnServer(ctx, server, post);
    const account = isObject(status.account) ? status.account : {};
    const acct = typeof account.acct === 'string' ? account.acct : '';
    if (typeof status.id !== 'string' || typeof account.id !== 'string' || acct === '')
      throw new ChannelError(`${hostOf(server)} did not say who wrote the post`);
    if (await blocksUs(ctx, server, account.id)) throw new AuthorBlocksError(accountOf(ctx, server));
    // the author is told only when mentioned (a direct request reaches only who it mentions)
    const local = [hostOf(server), typeof account.url === 'string' ? hostOf(account.url) : ''];
    const body = mentions(text, acct, local) ? text : `@${acct} ${text}`;
    const sent = await callJson<Json>(ctx, {
      url: `${server}/api/v1/statuses`,
      method: 'POST',
      headers: { ...auth(ctx), 'idempotency-key': `wallery-rights-${post.id}-${status.id}` },
      body: { status: body, in_reply_to_id: status.id, visibility },
      what: `posting the request on ${hostOf(server)}`,
    });
    if (!isObject(sent) || typeof sent.id !== 'string')
      throw new ChannelError(`${hostOf(server)} did not say which status the request became`);
    const ref: MastodonRef = { instance: server };
    return {
      id: sent.id,
      url: typeof sent.url === 'string' ? sent.url : `${server}/statuses/${sent.id}`,
      ref,
      authorRef: account.id,
    };
  },

  async replies(ctx, request) {
    const server = base((request.ref as MastodonRef | null)?.instance ?? serverOf(ctx));
    const context = await callJson<Json>(ctx, {
      url: `${server}/api/v1/statuses/${encodeURIComponent(request.id)}/context`,
      headers: auth(ctx),
      what: 'reading the answers',
    });
    const descendants = Array.isArray(context?.descendants) ? context.descendants : [];
    return descendants
      .filter((s) => isObject(s) && s.in_reply_to_id === request.id)
      .map(heard)
      .filter((r): r is HeardReply => r !== null);
  },

  async reply(ctx, request, replyId) {
    const server = base((request.ref as MastodonRef | null)?.instance ?? serverOf(ctx));
    const status = await callJson<Json>(ctx, {
      url: `${server}/api/v1/statuses/${encodeURIComponent(replyId)}`,
      headers: auth(ctx),
      what: 'reading the answer again',
      nullOn: [404, 410],
    });
    return heard(status);
  },
};
