// Bluesky for the rights tests: the ingestion fixture's public AppView
// (author feeds, test/ingest/fixtures/bluesky.ts) plus the brand's PDS —
// com.atproto.server.createSession / refreshSession (access tokens that
// expire with `400 ExpiredToken`), com.atproto.repo.createRecord,
// app.bsky.feed.getPosts (absent once deleted) and app.bsky.feed.getPostThread
// (direct replies at depth 1, a blocked reply among them), app.bsky.actor.getProfile
// (its viewer state: authors who block the brand) — and an entryway
// that signs in and names the PDS in the DID document, as bsky.social does.
import { postView, startBluesky, type BlueskyFixture } from '../ingest/fixtures/bluesky.js';
import { json, startFixture, type Fixture, type Recorded, type Reply } from '../ingest/fixtures/server.js';

type Json = Record<string, unknown>;

export const BRAND = {
  handle: 'harbor.bsky.social',
  did: 'did:plc:harborharborharbor2kq9x7',
  password: 'hrbr-2kq9-x7mw-c4pz',
};
export const ANA = { handle: 'ana.bsky.social', did: 'did:plc:ana4mgkzjqfg5xb2wbqvnb2p', displayName: 'Ana Lima' };
export const BOB = { handle: 'bob.bsky.social', did: 'did:plc:bobbobbobbobbobbobbobbob', displayName: 'Bob Stone' };

export interface BlueskyRightsServer extends BlueskyFixture {
  /** the brand's entryway (bsky.social): createSession only */
  entryway: Fixture;
  /** post views the AppView knows besides the author feed's: requests, replies */
  views: Json[];
  deleted: Set<string>;
  /**
   * Authors (DIDs) who block the brand: `shown`, their posts are read with
   * `author.viewer.blockedBy`; `hidden`, getPosts leaves their posts out and
   * only their profile says so.
   */
  blockers: Map<string, 'shown' | 'hidden'>;
  /** createRecord bodies */
  created: Json[];
  password: string;
  sessions: number;
  refreshes: number;
  /** makes the access token (or the refresh token too) expire */
  expireAccess(): void;
  expireRefresh(): void;
  /** a post view of `who` replying to `parent` in the thread of `root` */
  reply(o: { rkey: string; who: typeof ANA; text: string; parent: Json; root?: Json }): Json;
}

const ref = (v: Json) => ({ uri: v.uri, cid: v.cid });

export async function startBlueskyRights(): Promise<BlueskyRightsServer> {
  const fx = (await startBluesky()) as BlueskyRightsServer;
  fx.views = [];
  fx.deleted = new Set();
  fx.created = [];
  fx.blockers = new Map();
  fx.password = BRAND.password;
  fx.sessions = 0;
  fx.refreshes = 0;
  let generation = 1;
  let access = `access-${generation}`;
  let refresh = `refresh-${generation}`;
  fx.expireAccess = () => {
    access = `access-expired-${Math.random()}`;
  };
  fx.expireRefresh = () => {
    refresh = `refresh-expired-${Math.random()}`;
  };
  const tokens = () => {
    generation++;
    access = `access-${generation}`;
    refresh = `refresh-${generation}`;
    return { accessJwt: access, refreshJwt: refresh };
  };
  const session = (req: Recorded): Reply => {
    const body = JSON.parse(req.body || '{}') as { identifier?: string; password?: string };
    if (body.identifier !== BRAND.handle || body.password !== fx.password)
      return json({ error: 'AuthenticationRequired', message: 'Invalid identifier or password' }, 401);
    fx.sessions++;
    return json({
      did: BRAND.did,
      handle: BRAND.handle,
      email: 'social@harbor.example',
      emailConfirmed: true,
      ...tokens(),
      active: true,
      didDoc: {
        '@context': ['https://www.w3.org/ns/did/v1'],
        id: BRAND.did,
        alsoKnownAs: [`at://${BRAND.handle}`],
        service: [{ id: '#atproto_pds', type: 'AtprotoPersonalDataServer', serviceEndpoint: fx.origin }],
      },
    });
  };
  fx.entryway = await startFixture((req, url) =>
    url.pathname === '/xrpc/com.atproto.server.createSession' && req.method === 'POST'
      ? session(req)
      : json({ error: 'MethodNotImplemented', message: 'Method Not Implemented' }, 501),
  );
  const closeAppView = fx.close;
  fx.close = async () => {
    await fx.entryway.close();
    await closeAppView();
  };

  const all = () => [...fx.feed.map((i) => i.post), ...fx.views].filter((v) => !fx.deleted.has(String(v.uri)));
  const find = (uri: string) => all().find((v) => v.uri === uri);
  const view = (o: { rkey: string; who: typeof ANA; text: string; reply?: Json; facets?: unknown[] }) => {
    const v = postView({
      rkey: o.rkey,
      text: o.text,
      createdAt: `2026-01-15T12:0${fx.views.length % 10}:00.000Z`,
      handle: o.who.handle,
      displayName: o.who.displayName,
      did: o.who.did,
      ...(o.facets ? { facets: o.facets } : {}),
    });
    if (o.reply) (v.record as Json).reply = o.reply;
    return v;
  };
  fx.reply = ({ rkey, who, text, parent, root }) => {
    const v = view({ rkey, who, text, reply: { root: ref(root ?? parent), parent: ref(parent) } });
    fx.views.push(v);
    return v;
  };

  const base = fx.handler;
  fx.handler = (req, url) => {
    const method = url.pathname.replace(/^\/xrpc\//, '');
    if (method === 'com.atproto.server.createSession') return session(req);
    const pds = [
      'com.atproto.server.refreshSession',
      'com.atproto.repo.createRecord',
      'app.bsky.feed.getPosts',
      'app.bsky.feed.getPostThread',
      'app.bsky.actor.getProfile',
    ];
    if (!pds.includes(method)) return base(req, url);
    const bearer = req.headers.authorization;
    if (!bearer) return json({ error: 'AuthMissing', message: 'Authentication Required' }, 401);
    if (method === 'com.atproto.server.refreshSession') {
      if (bearer !== `Bearer ${refresh}`) return json({ error: 'ExpiredToken', message: 'Token has expired' }, 400);
      fx.refreshes++;
      return json({ did: BRAND.did, handle: BRAND.handle, ...tokens(), active: true });
    }
    if (bearer !== `Bearer ${access}`) return json({ error: 'ExpiredToken', message: 'Token has expired' }, 400);
    if (method === 'app.bsky.feed.getPosts') {
      const uris = url.searchParams.getAll('uris');
      const viewed = (v: Json): Json | null => {
        const did = String((v.author as Json).did);
        const block = fx.blockers.get(did);
        if (block === 'hidden') return null;
        return block === 'shown' ? { ...v, author: { ...(v.author as Json), viewer: { blockedBy: true } } } : v;
      };
      return json({ posts: uris.flatMap((u) => (find(u) ? [viewed(find(u)!)] : [])).filter((v) => v !== null) });
    }
    if (method === 'app.bsky.actor.getProfile') {
      const actor = url.searchParams.get('actor') ?? '';
      const known = [ANA, BOB].find((a) => a.did === actor || a.handle === actor);
      if (!known) return json({ error: 'InvalidRequest', message: 'Profile not found' }, 400);
      return json({
        did: known.did,
        handle: known.handle,
        displayName: known.displayName,
        viewer: { muted: false, blockedBy: fx.blockers.has(known.did) },
      });
    }
    if (method === 'app.bsky.feed.getPostThread') {
      const uri = url.searchParams.get('uri') ?? '';
      const root = find(uri);
      if (!root) return json({ error: 'NotFound', message: `Post not found: ${uri}` }, 400);
      const replies = all()
        .filter((v) => ((v.record as Json).reply as { parent?: { uri?: string } } | undefined)?.parent?.uri === uri)
        .map((post) => ({ $type: 'app.bsky.feed.defs#threadViewPost', post, replies: [] }));
      return json({
        thread: {
          $type: 'app.bsky.feed.defs#threadViewPost',
          post: root,
          // someone who blocks the brand answered too: their reply is a stub
          replies: [
            {
              $type: 'app.bsky.feed.defs#blockedPost',
              uri: `at://${BOB.did}/app.bsky.feed.post/3blocked`,
              blocked: true,
              author: { did: BOB.did, viewer: { blockedBy: true } },
            },
            ...replies,
          ],
        },
        threadgate: null,
      });
    }
    // createRecord
    const body = JSON.parse(req.body) as { repo: string; collection: string; record: Json };
    fx.created.push(body);
    if (body.repo !== BRAND.did)
      return json({ error: 'InvalidRequest', message: 'Input/repo must be the authenticated DID' }, 400);
    const rkey = `3lhrights${String(fx.created.length).padStart(4, '0')}`;
    const record = body.record;
    const v = view({
      rkey,
      who: { handle: BRAND.handle, did: BRAND.did, displayName: 'Harbor Coffee' },
      text: String(record.text),
      reply: record.reply as Json,
      ...(Array.isArray(record.facets) ? { facets: record.facets } : {}),
    });
    fx.views.push(v);
    return json({ uri: v.uri, cid: v.cid, commit: { cid: 'bafyreicommit', rev: '3lhrev' }, validationStatus: 'valid' });
  };
  return fx;
}
