// What the operator console needs of the management API: who the token is
// (GET /tokens/current), a wall's posts by state in the wall list, the
// moderation view's network and text filters, and "poll now".
import { afterAll, beforeAll, expect, it } from 'vitest';
import { CLI_ACTOR } from '../../../src/manage/op.js';
import { createOperatorToken } from '../../../src/manage/tokens.js';
import { describeSample } from '../../helpers/sample.js';
import { data, failure, fields, startManageServer, type ManageServer } from './helpers.js';

interface Post {
  id: number;
  networkName: string;
  content: string;
  authorName: string;
}
interface Page<T> {
  data: T[];
  nextCursor: string | null;
}

describeSample('the management API for the console', () => {
  let m: ManageServer;
  const WALL = 7011;
  beforeAll(async () => {
    m = await startManageServer();
  });
  afterAll(async () => m?.close());

  const posts = async (query: string): Promise<Post[]> =>
    (data(await m.api('GET', `/walls/${WALL}/posts?limit=200&${query}`)) as unknown as Page<Post>).data;

  it('GET /tokens/current: the calling token, whatever its role and scope', async () => {
    expect(data(await m.api('GET', '/tokens/current'))).toMatchObject({
      name: 'test-operator',
      role: 'admin',
      accounts: null,
      revokedAt: null,
    });
    const op = { db: m.srv.store.db, actor: CLI_ACTOR, now: m.srv.clock.now };
    const scoped = await createOperatorToken(op, { name: 'mo', role: 'viewer', accounts: [7001] });
    const me = data(await m.api('GET', '/tokens/current', undefined, scoped.token));
    expect(me).toMatchObject({ id: scoped.id, name: 'mo', role: 'viewer', accounts: [7001] });
    expect(JSON.stringify(me)).not.toContain(scoped.token);
    failure(await m.api('GET', '/tokens/current', undefined, null), 401);
  });

  it('the wall list counts posts by state: approved (shown), pending, rejected, hidden', async () => {
    const all = await posts('state=all');
    const [a, b, c] = all;
    await m.api('PATCH', `/walls/${WALL}/posts/${a!.id}`, { state: 'pending' });
    await m.api('PATCH', `/walls/${WALL}/posts/${b!.id}`, { state: 'rejected', reason: 'off-topic' });
    await m.api('PATCH', `/walls/${WALL}/posts/${c!.id}`, { state: 'pending', hidden: true });
    const walls = (
      data(await m.api('GET', '/walls?accountId=7001&limit=200')) as unknown as Page<Record<string, number>>
    ).data;
    const wall = walls.find((w) => w.id === WALL)!;
    const count = async (q: string) => (await posts(q)).length;
    expect(wall).toMatchObject({
      postCount: all.length,
      approvedCount: await count('status=visible'),
      pendingCount: await count('state=pending'),
      rejectedCount: await count('state=rejected'),
      hiddenCount: await count('state=hidden'),
    });
    expect([wall.pendingCount, wall.rejectedCount]).toEqual([2, 1]);
    expect(data(await m.api('GET', `/walls/${WALL}`))).toEqual(wall);
  });

  it('filters the moderation view by network (any case) and by text (content, author; % and _ taken literally)', async () => {
    const all = await posts('state=all');
    const network = all[0]!.networkName;
    const byNetwork = await posts(`network=${encodeURIComponent(network.toUpperCase())}`);
    expect(byNetwork.length).toBeGreaterThan(0);
    expect(byNetwork.map((p) => p.id)).toEqual(all.filter((p) => p.networkName === network).map((p) => p.id));
    expect(await posts('network=no-such-network')).toEqual([]);

    const [target, other] = all.filter((p) => p.networkName === network);
    await m.api('PATCH', `/walls/${WALL}/posts/${target!.id}`, { content: 'Lunch deal: 50%_OFF Café Crème zq_x' });
    await m.api('PATCH', `/walls/${WALL}/posts/${other!.id}`, { content: 'Lunch deal: 50 percent off zqax' });
    const ids = async (q: string) => (await posts(`q=${encodeURIComponent(q)}`)).map((p) => p.id);
    expect(await ids('50%_off')).toEqual([target!.id]);
    expect(await ids('café crème')).toEqual([target!.id]);
    expect(await ids('%')).toEqual([target!.id]);
    expect(await ids('zq_x')).toEqual([target!.id]); // `_` is not “any character”
    expect((await ids('lunch deal')).sort()).toEqual([target!.id, other!.id].sort());
    // the author's name too, and combined with the other filters
    const author = all.find((p) => p.authorName.length > 3)!;
    expect(await ids(author.authorName.slice(0, 4).toLowerCase())).toContain(author.id);
    expect(await posts(`q=lunch&network=no-such-network`)).toEqual([]);
    expect(fields(failure(await m.api('GET', `/walls/${WALL}/posts?q=`), 400))).toEqual(['q']);
    expect(fields(failure(await m.api('GET', `/walls/${WALL}/posts?q=${'x'.repeat(201)}`), 400))).toEqual(['q']);
  });

  it('poll now: 409 in words without a connector, disabled, on a deleted wall; otherwise due at once (this server does not poll)', async () => {
    const feed = (body: Record<string, unknown>) =>
      m.api('POST', `/walls/${WALL}/feeds`, { name: 'f', source: 'RSS', sourceType: 'feed', ...body });
    const rss = { kind: 'rss', url: 'https://blog.example/feed.xml' };
    const bare = data(await feed({}), 201) as { id: number };
    failure(await m.api('POST', `/walls/${WALL}/feeds/${bare.id}/poll`), 409, /has no connector/);
    const off = data(await feed({ connector: rss, enabled: false }), 201) as { id: number };
    failure(await m.api('POST', `/walls/${WALL}/feeds/${off.id}/poll`), 409, /is disabled/);
    const on = data(await feed({ connector: rss }), 201) as { id: number };
    const polled = data(await m.api('POST', `/walls/${WALL}/feeds/${on.id}/poll`));
    expect(polled).toMatchObject({
      feed: { id: on.id, connector: rss, enabled: true },
      poll: { status: 'scheduled', inserted: 0, updated: 0, message: expect.stringMatching(/does not poll/) },
    });
    failure(await m.api('POST', `/walls/7012/feeds/${on.id}/poll`), 404);
    const wall = data(await m.api('POST', '/walls', { accountId: 7001, name: 'Gone', url: 'gone-soon' }), 201) as {
      id: number;
    };
    const gone = data(
      await m.api('POST', `/walls/${wall.id}/feeds`, { name: 'g', source: 'RSS', sourceType: 'feed', connector: rss }),
      201,
    ) as { id: number };
    await m.api('DELETE', `/walls/${wall.id}`);
    failure(await m.api('POST', `/walls/${wall.id}/feeds/${gone.id}/poll`), 409, /is deleted/);
  });
});
