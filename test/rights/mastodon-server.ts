// A Mastodon server for the rights tests: the ingestion fixture's timelines
// (test/ingest/fixtures/mastodon.ts) plus what asking needs, in Mastodon's
// shapes — POST /api/v1/statuses (JSON, Idempotency-Key: the same key gives
// the same status back), GET /api/v1/statuses/:id (404 once deleted,
// `edited_at` after an edit), GET /api/v1/statuses/:id/context (descendants,
// nested replies too), GET /api/v2/search (a status by its link; another
// server's only with resolve=true), GET /api/v1/accounts/relationships (its
// `blocked_by`: authors who block the brand; 403 without read:follows) —
// behind a bearer token with scopes.
import {
  account,
  mastodonHtml,
  startMastodon,
  status,
  INSTANCE_HOST,
  INVALID_TOKEN,
  type MastodonFixture,
} from '../ingest/fixtures/mastodon.js';
import { json, type Recorded } from '../ingest/fixtures/server.js';

type Json = Record<string, unknown>;

export const BRAND = account('harborcoffee', 'Harbor Coffee', '109000000000000777');

export interface MastodonRightsServer extends MastodonFixture {
  /** statuses besides the timeline's: requests posted, replies, copies of remote statuses */
  others: Json[];
  deleted: Set<string>;
  /** statuses held as copies of another server's (found by search only with resolve=true) */
  remote: Set<string>;
  /** the token the write and read calls need, and its scopes */
  rightsToken: string;
  scopes: string[];
  /** account ids of authors who block the brand */
  blockedBy: Set<string>;
  /** what POST /api/v1/statuses received */
  posted: { body: Json; headers: Recorded['headers'] }[];
  /** a reply to `to` by `who`, its text as Mastodon renders it (the brand mentioned first) */
  reply(o: { id: string; to: string; who: ReturnType<typeof account>; text: string; tags?: string[] }): Json;
  /** edits a status: new content, `edited_at` set */
  edit(id: string, text: string, at: string): void;
}

const escapeHtml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

export async function startMastodonRights(brand = BRAND): Promise<MastodonRightsServer> {
  const fx = (await startMastodon()) as MastodonRightsServer;
  fx.others = [];
  fx.deleted = new Set();
  fx.remote = new Set();
  fx.rightsToken = 'masto-rights-token-9c1Kq2Vw';
  fx.scopes = ['read', 'write:statuses'];
  fx.posted = [];
  fx.blockedBy = new Set();
  const idempotent = new Map<string, Json>();
  let nextId = 113000000000000000n;
  const all = () => [...fx.statuses, ...fx.others].filter((s) => !fx.deleted.has(String(s.id)));
  const find = (id: string) => all().find((s) => s.id === id);

  fx.reply = ({ id, to, who, text, tags = [] }) => {
    const mention = `<span class="h-card" translate="no"><a href="${brand.url}" class="u-url mention">@<span>${brand.username}</span></a></span>`;
    const s = status({
      id,
      createdAt: '2026-01-15T12:01:00.000Z',
      // hashtags as Mastodon renders them in place: a link around `#<span>tag</span>`
      html: `<p>${mention} ${escapeHtml(text).replace(
        /#([\p{L}\p{N}_]+)/gu,
        (_, tag: string) =>
          `<a href="https://${INSTANCE_HOST}/tags/${tag.toLowerCase()}" class="mention hashtag" rel="tag">#<span>${tag}</span></a>`,
      )}</p>`,
      account: who,
      tags,
      inReplyTo: to,
    });
    s.in_reply_to_account_id = brand.id;
    s.mentions = [{ id: brand.id, username: brand.username, acct: brand.acct, url: brand.url }];
    fx.others.push(s);
    return s;
  };
  fx.edit = (id, text, at) => {
    const s = all().find((x) => x.id === id)!;
    s.content = mastodonHtml(escapeHtml(text));
    s.edited_at = at;
  };

  const base = fx.handler;
  fx.handler = (req, url) => {
    const path = url.pathname;
    const rights =
      path === '/api/v1/statuses' ||
      /^\/api\/v1\/statuses\/[^/]+(\/context)?$/.test(path) ||
      path === '/api/v2/search' ||
      path === '/api/v1/accounts/relationships';
    if (!rights) return base(req, url);
    if (req.headers.authorization !== `Bearer ${fx.rightsToken}`)
      return json(INVALID_TOKEN, 401, {
        'www-authenticate':
          'Bearer realm="Doorkeeper", error="invalid_token", error_description="The access token is invalid"',
      });
    if (path === '/api/v1/statuses' && req.method === 'POST') {
      if (!fx.scopes.includes('write:statuses') && !fx.scopes.includes('write'))
        return json({ error: 'This action is outside the authorized scopes' }, 403);
      const body = JSON.parse(req.body) as Json;
      fx.posted.push({ body, headers: req.headers });
      const key = req.headers['idempotency-key'];
      if (typeof key === 'string' && idempotent.has(key)) return json(idempotent.get(key));
      if (body.in_reply_to_id !== undefined && !find(String(body.in_reply_to_id)))
        return json({ error: 'Record not found' }, 404);
      if (String(body.status ?? '').length > 500)
        return json({ error: 'Validation failed: Text character limit of 500 exceeded' }, 422);
      const id = String(nextId++);
      const s = status({
        id,
        createdAt: '2026-01-15T12:00:30.000Z',
        html: `<p>${escapeHtml(String(body.status))}</p>`,
        account: brand,
        inReplyTo: body.in_reply_to_id as string | undefined,
      });
      s.visibility = body.visibility ?? 'public';
      fx.others.push(s);
      if (typeof key === 'string') idempotent.set(key, s);
      return json(s);
    }
    if (path === '/api/v1/accounts/relationships') {
      if (!fx.scopes.some((s) => s === 'read' || s === 'read:follows'))
        return json({ error: 'This action is outside the authorized scopes' }, 403);
      // Mastodon's shape: one relationship per id[] asked
      return json(
        url.searchParams.getAll('id[]').map((id) => ({
          id,
          following: false,
          followed_by: false,
          blocking: false,
          blocked_by: fx.blockedBy.has(id),
          muting: false,
          requested: false,
          domain_blocking: false,
          note: '',
        })),
      );
    }
    let m = /^\/api\/v1\/statuses\/([^/]+)\/context$/.exec(path);
    if (m) {
      const root = find(m[1]!);
      if (!root) return json({ error: 'Record not found' }, 404);
      const descendants: Json[] = [];
      const walk = (id: string) => {
        for (const s of all().filter((x) => x.in_reply_to_id === id)) {
          descendants.push(s);
          walk(String(s.id));
        }
      };
      walk(String(root.id));
      return json({ ancestors: [], descendants });
    }
    m = /^\/api\/v1\/statuses\/([^/]+)$/.exec(path);
    if (m && req.method === 'GET') {
      const s = find(m[1]!);
      return s ? json(s) : json({ error: 'Record not found' }, 404);
    }
    if (path === '/api/v2/search') {
      const q = url.searchParams.get('q') ?? '';
      const resolve = url.searchParams.get('resolve') === 'true';
      const hit = all().find((s) => s.url === q || s.uri === q);
      // a status another server holds is fetched (resolved) only when asked to
      const remote = hit !== undefined && fx.remote.has(String(hit.id));
      return json({ accounts: [], hashtags: [], statuses: hit && (!remote || resolve) ? [hit] : [] });
    }
    return json({ error: 'Record not found' }, 404);
  };
  return fx;
}
