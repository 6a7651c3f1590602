// A wall's moderation rules through the management API: ids assigned, every
// bad rule named in fieldErrors (never a 500, for any list: fast-check), a
// dry run that saves nothing, apply to stored posts (approved ones only when
// asked), and the audit log.
import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeSample } from '../../helpers/sample.js';
import { data, failure, fields, startManageServer, w2Posts, type ManageServer } from './helpers.js';

interface Rules {
  rules: Record<string, unknown>[];
  dryRun?: boolean;
  counts?: { ruleId: string; matched: number; changed: number }[];
}

describeSample('moderation rules', () => {
  let m: ManageServer;
  beforeAll(async () => {
    m = await startManageServer();
  });
  afterAll(async () => m?.close());

  const state = async (postId: number) =>
    data<{ state: string; decision: unknown }>(await m.api('GET', `/walls/7011/posts/${postId}`));

  it('a wall starts with none; PUT stores them in order with ids assigned and defaults written out', async () => {
    expect(data<Rules>(await m.api('GET', '/walls/7011/rules'))).toEqual({ rules: [], providers: [] });
    const put = data<Rules>(
      await m.api('PUT', '/walls/7011/rules', {
        rules: [
          { kind: 'keyword', action: 'reject', words: ['spoiler', 'free money'] },
          { id: 'r1', kind: 'author', action: 'reject', network: 'Mastodon', usernames: ['troll@m.example'] },
          { kind: 'profanity', action: 'hold' },
          { kind: 'media', action: 'hold', require: 'image' },
          { kind: 'length', action: 'hold', min: 20 },
          { kind: 'repost', action: 'hold' },
        ],
      }),
    );
    expect(put.rules).toEqual([
      { id: 'r2', kind: 'keyword', action: 'reject', words: ['spoiler', 'free money'], match: 'any' },
      { id: 'r1', kind: 'author', action: 'reject', network: 'Mastodon', usernames: ['troll@m.example'] },
      { id: 'r3', kind: 'profanity', action: 'hold', languages: ['en'] },
      { id: 'r4', kind: 'media', action: 'hold', require: 'image' },
      { id: 'r5', kind: 'length', action: 'hold', min: 20 },
      { id: 'r6', kind: 'repost', action: 'hold' },
    ]);
    expect(data<Rules>(await m.api('GET', '/walls/7011/rules'))).toEqual({ rules: put.rules, providers: [] });
    // nothing stored changed: rules judge new posts, and stored ones only when applied
    expect(await w2Posts(m, 7011)).toHaveLength(57);
    data(await m.api('PUT', '/walls/7011/rules', { rules: [] }));
  });

  it('names every bad rule and field at once', async () => {
    const res = await m.api('PUT', '/walls/7011/rules', {
      rules: [
        { kind: 'keyword', action: 'reject', words: [] },
        { kind: 'colour', action: 'reject' },
        { kind: 'media', action: 'delete', require: 'gif' },
        { kind: 'length', action: 'hold', min: 0, extra: 1 },
        { id: 'x', kind: 'reply', action: 'hold' },
        { id: 'x', kind: 'sensitive', action: 'hold' },
        'nope',
        { kind: 'author', action: 'reject', usernames: ['a'] },
      ],
    });
    expect(fields(failure(res, 400))).toEqual([
      'rules[0].words',
      'rules[1].kind',
      'rules[2].action',
      'rules[2].require',
      'rules[3].extra',
      'rules[3].min',
      'rules[5].id',
      'rules[6]',
      'rules[7].network',
    ]);
    expect(fields(failure(await m.api('PUT', '/walls/7011/rules', { rules: {} }), 400))).toEqual(['rules']);
    expect(fields(failure(await m.api('PUT', '/walls/7011/rules?dryRun=maybe', { rules: [] }), 400))).toEqual([
      'dryRun',
    ]);
    failure(await m.api('PUT', '/walls/999999/rules', { rules: [] }), 404);
  });

  it('dry run saves nothing and reports per rule; apply changes pending posts, approved ones only when asked', async () => {
    // three posts wait in the queue
    for (const id of [17003, 17004, 17006]) data(await m.api('PATCH', `/walls/7011/posts/${id}`, { state: 'pending' }));
    const rules = [
      { id: 'cafe', kind: 'keyword', action: 'reject', words: ['CAFE'] },
      { id: 'text', kind: 'media', action: 'approve', require: 'image' },
      { id: 'rest', kind: 'length', action: 'approve', min: 1 },
    ];
    const dry = data<Rules>(await m.api('PUT', '/walls/7011/rules?dryRun=true', { rules }));
    expect(dry).toMatchObject({ dryRun: true });
    // 17003 (café, image) and 17004 (café, text) → cafe; 17006 (text) → `text` approves (not an image: matches)
    expect(dry.counts).toEqual([
      { ruleId: 'cafe', matched: 2, changed: 2 },
      { ruleId: 'text', matched: 1, changed: 1 },
      { ruleId: 'rest', matched: 0, changed: 0 },
    ]);
    expect(data<Rules>(await m.api('GET', '/walls/7011/rules')).rules).toEqual([]);
    expect((await state(17003)).state).toBe('pending');

    data(await m.api('PUT', '/walls/7011/rules', { rules }));
    const applied = data<{ counts: unknown[]; checked: number }>(await m.api('POST', '/walls/7011/rules/apply', {}));
    expect(applied).toEqual({ checked: 3, counts: dry.counts });
    expect(await state(17003)).toMatchObject({
      state: 'rejected',
      decision: { by: 'rule:cafe', reason: 'keyword rule: a keyword matched' },
    });
    expect((await state(17006)).state).toBe('approved');
    const visible = (await w2Posts(m, 7011)).map((p) => Number(p.postId));
    expect(visible).not.toContain(17003);
    expect(visible).toContain(17006);

    // approved posts are judged only when the call says so
    const again = data<{ counts: { ruleId: string; changed: number }[]; checked: number }>(
      await m.api('POST', '/walls/7011/rules/apply', { includeApproved: true }),
    );
    expect(again.checked).toBeGreaterThan(50);
    expect(again.counts[0]!.changed).toBeGreaterThan(0); // approved posts with café
    const audit = data<{ data: Record<string, unknown>[] }>(await m.api('GET', '/audit?limit=3&targetType=wall'));
    expect(audit.data.map((e) => e.action)).toEqual(['wall.rules.apply', 'wall.rules.apply', 'wall.rules.set']);
    data(await m.api('PUT', '/walls/7011/rules', { rules: [] }));
  });

  it('repost and reply rules judge the stored flags of posts already on the wall', async () => {
    // three approved posts: one arrived as a repost, two answer another post (as ingestion stores them)
    const ids = (
      await m.srv.store.db
        .selectFrom('posts')
        .select('id')
        .where('wall_id', '=', 7011)
        .where('state', '=', 'approved')
        .orderBy('id')
        .limit(3)
        .execute()
    ).map((r) => r.id);
    const [boost, ...replies] = ids as [number, number, number];
    await m.srv.store.db.updateTable('posts').set({ repost: 1 }).where('id', '=', boost).execute();
    await m.srv.store.db.updateTable('posts').set({ reply: 1 }).where('id', 'in', replies).execute();
    const rules = [
      { id: 'boosts', kind: 'repost', action: 'hold' },
      { id: 'replies', kind: 'reply', action: 'reject' },
    ];
    data(await m.api('PUT', '/walls/7011/rules', { rules }));
    // approved posts are left alone unless the call asks
    const pendingOnly = data<Rules>(await m.api('POST', '/walls/7011/rules/apply', {}));
    expect(pendingOnly.counts).toEqual([
      { ruleId: 'boosts', matched: 0, changed: 0 },
      { ruleId: 'replies', matched: 0, changed: 0 },
    ]);
    const applied = data<Rules>(await m.api('POST', '/walls/7011/rules/apply', { includeApproved: true }));
    expect(applied.counts).toEqual([
      { ruleId: 'boosts', matched: 1, changed: 1 },
      { ruleId: 'replies', matched: 2, changed: 2 },
    ]);
    const post = (id: number) =>
      m.api('GET', `/walls/7011/posts/${id}`).then((res) => data<Record<string, unknown>>(res));
    expect(await post(boost)).toMatchObject({
      repost: true,
      reply: false,
      state: 'pending',
      decision: { by: 'rule:boosts', reason: 'repost rule: a repost' },
    });
    for (const id of replies)
      expect(await post(id)).toMatchObject({
        repost: false,
        reply: true,
        state: 'rejected',
        decision: { by: 'rule:replies', reason: 'reply rule: a reply' },
      });
    const visible = (await w2Posts(m, 7011)).map((p) => Number(p.postId));
    expect(ids.some((id) => visible.includes(id))).toBe(false);
    data(await m.api('PUT', '/walls/7011/rules', { rules: [] }));
  });

  it('picture rules: defaults written out, blur for image rules only, bad settings named; a dry run counts posts not scored yet as queued', async () => {
    const put = data<Rules>(
      await m.api('PUT', '/walls/7011/rules', {
        rules: [
          { kind: 'image', action: 'blur' },
          { kind: 'similar_image', action: 'hold', distance: 3 },
        ],
      }),
    );
    expect(put.rules).toEqual([
      { id: 'r1', kind: 'image', action: 'blur', classes: ['porn', 'hentai', 'sexy'], threshold: 0.8 },
      { id: 'r2', kind: 'similar_image', action: 'hold', distance: 3, withinHours: 24 },
    ]);
    const bad = await m.api('PUT', '/walls/7011/rules', {
      rules: [
        { kind: 'keyword', action: 'blur', words: ['x'] },
        { kind: 'image', action: 'hold', classes: ['nudity'], threshold: 1.5 },
        { kind: 'similar_image', action: 'blur', distance: 40, withinHours: 0 },
      ],
    });
    expect(fields(failure(bad, 400))).toEqual([
      'rules[0].action',
      'rules[1].classes',
      'rules[1].threshold',
      'rules[2].action',
      'rules[2].distance',
      'rules[2].withinHours',
    ]);
    // a pending post with a picture that was never scored: left as it is, counted as queued
    data(await m.api('PATCH', '/walls/7011/posts/17003', { state: 'pending' }));
    const dry = data<Rules & { queued?: number }>(
      await m.api('PUT', '/walls/7011/rules?dryRun=true', { rules: [{ id: 'img', kind: 'image', action: 'reject' }] }),
    );
    expect(dry.counts).toEqual([{ ruleId: 'img', matched: 0, changed: 0 }]);
    expect(dry.queued).toBeGreaterThanOrEqual(1);
    const applied = data<{ checked: number; queued?: number }>(await m.api('POST', '/walls/7011/rules/apply', {}));
    expect(applied.queued).toBeGreaterThanOrEqual(1);
    expect((await state(17003)).state).toBe('pending');
    data(await m.api('PATCH', '/walls/7011/posts/17003', { state: 'approved' }));
    data(await m.api('PUT', '/walls/7011/rules', { rules: [] }));
  });

  it('names every field a rule does not take, however many (the validator stops after a few errors)', async () => {
    const extra = ['usernames', 'languages', 'require', 'min', 'classes', 'threshold', 'distance', 'withinHours', 'by'];
    const rule = {
      kind: 'keyword',
      action: 'reject',
      words: ['spoiler'],
      ...Object.fromEntries(extra.map((f) => [f, 0])),
    };
    const res = await m.api('PUT', '/walls/7011/rules?dryRun=true', { rules: [rule] });
    expect(fields(failure(res, 400))).toEqual(expect.arrayContaining(extra.slice(0, 8).map((f) => `rules[0].${f}`)));
  });

  it('any rule list either validates or gets fieldErrors, never a 500', async () => {
    const word = fc.string({ maxLength: 8 });
    const ruleArb = fc.record(
      {
        id: fc.oneof(fc.constant(undefined), fc.string({ maxLength: 6 }), fc.integer()),
        kind: fc.oneof(
          fc.constantFrom(
            'keyword',
            'author',
            'profanity',
            'media',
            'repost',
            'reply',
            'sensitive',
            'length',
            'image',
            'similar_image',
            'rights',
          ),
          fc.string({ maxLength: 6 }),
        ),
        action: fc.oneof(fc.constantFrom('reject', 'hold', 'approve', 'blur'), fc.string({ maxLength: 5 })),
        words: fc.array(fc.oneof(word, fc.integer()), { maxLength: 3 }),
        match: fc.constantFrom('any', 'all', 'some', undefined),
        network: fc.oneof(fc.constant(null), word),
        usernames: fc.array(word, { maxLength: 3 }),
        languages: fc.oneof(fc.constant(['en']), fc.array(word, { maxLength: 2 })),
        require: fc.constantFrom('any', 'image', 'video', 'gif'),
        min: fc.oneof(fc.integer({ min: -5, max: 20000 }), fc.double(), word),
        classes: fc.oneof(fc.constant(['porn']), fc.array(word, { maxLength: 2 })),
        threshold: fc.oneof(fc.double(), word),
        distance: fc.oneof(fc.integer({ min: -2, max: 70 }), word),
        withinHours: fc.oneof(fc.integer({ min: -2, max: 800 }), fc.double()),
        states: fc.oneof(
          fc.constant(['granted']),
          fc.array(fc.constantFrom('none', 'revoked', 'maybe', 3), { maxLength: 3 }),
        ),
      },
      { requiredKeys: [] },
    );
    const body = fc.oneof(
      fc.record({ rules: fc.array(fc.oneof(ruleArb, fc.anything()), { maxLength: 4 }) }),
      fc.anything(),
    );
    await fc.assert(
      fc.asyncProperty(body, fc.boolean(), async (b, dryRun) => {
        const res = await m.api('PUT', `/walls/7011/rules?dryRun=${dryRun}`, b);
        expect([200, 400]).toContain(res.status);
        if (res.status === 400) expect(failure(res, 400).length).toBeGreaterThan(0);
      }),
      { numRuns: 60 },
    );
    data(await m.api('PUT', '/walls/7011/rules', { rules: [] }));
  });
});
