// The `rights` moderation rule through the management API, on the sample
// data: its validation (each bad field named), a change of a post's rights
// deciding the post by the first rights rule listing the new state (pending
// and approved posts only, a post waiting for a check left waiting; the
// wall's other rules not run again), the webhooks the change log then sends,
// and an apply judging stored posts by their rights state.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { IMAGE_CHECK_BY, IMAGE_CHECK_WAIT } from '../../../src/domain/image-rules.js';
import { decisionColumns } from '../../../src/store/post-columns.js';
import { WebhookRuntime } from '../../../src/webhooks/runtime.js';
import { describeSample } from '../../helpers/sample.js';
import { Receiver, WEBHOOK_CONFIG, WEBHOOK_SETTINGS } from '../../webhooks/helpers.js';
import { data, failure, fields, startManageServer, type ManageServer } from './helpers.js';

interface Post {
  id: number;
  state: string;
  decision: { by: string; reason: string | null } | null;
  rights: { state: string | null; held: boolean };
}

const OPERATOR = 'test-operator';

describeSample('the rights rule (management API)', () => {
  let m: ManageServer;
  beforeAll(async () => {
    m = await startManageServer();
  });
  afterAll(async () => m?.close());

  const post = async (id: number) => data<Post>(await m.api('GET', `/walls/7011/posts/${id}`));
  const moderate = async (id: number, state: string) =>
    data(await m.api('PATCH', `/walls/7011/posts/${id}`, { state }));
  const answer = async (id: number, state: string) =>
    data(await m.api('POST', `/walls/7011/posts/${id}/rights/answer`, { state }));
  const setRules = async (rules: unknown[]) =>
    data<{ rules: unknown[] }>(await m.api('PUT', '/walls/7011/rules', { rules }));

  it('refuses an empty, unknown or repeated state and a rule without states, naming each field', async () => {
    const res = await m.api('PUT', '/walls/7011/rules', {
      rules: [
        { kind: 'rights', action: 'approve', states: [] },
        { kind: 'rights', action: 'reject', states: ['maybe'] },
        { kind: 'rights', action: 'hold', states: ['granted', 'granted'] },
        { kind: 'rights', action: 'approve' },
        { kind: 'rights', action: 'blur', states: ['none'] },
      ],
    });
    const errors = failure(res, 400);
    expect(fields(errors)).toEqual([
      'rules[0].states',
      'rules[1].states',
      'rules[2].states',
      'rules[3].states',
      'rules[4].action',
    ]);
    expect(errors[0]!.message).toContain(
      'states must be a list of none, requested, granted, declined, expired or revoked, at least one, each once',
    );
    const put = await setRules([
      { kind: 'rights', action: 'approve', states: ['granted'] },
      { id: 'no', kind: 'rights', action: 'reject', states: ['declined', 'revoked'] },
    ]);
    expect(put.rules).toEqual([
      { id: 'r1', kind: 'rights', action: 'approve', states: ['granted'] },
      { id: 'no', kind: 'rights', action: 'reject', states: ['declined', 'revoked'] },
    ]);
    expect(data<{ rules: unknown[] }>(await m.api('GET', '/walls/7011/rules')).rules).toEqual(put.rules);
    await setRules([]);
  });

  it('a change of rights: the first rights rule listing the new state decides a pending or approved post', async () => {
    // 17003 and 17004 mention café: the keyword rule would reject them, were it run again
    await setRules([
      { id: 'cafe', kind: 'keyword', action: 'reject', words: ['cafe'] },
      { id: 'ok', kind: 'rights', action: 'approve', states: ['granted'] },
      { id: 'later', kind: 'rights', action: 'hold', states: ['granted'] },
      { id: 'no', kind: 'rights', action: 'reject', states: ['declined', 'revoked'] },
    ]);
    try {
      await moderate(17003, 'pending');
      await answer(17003, 'granted');
      expect(await post(17003)).toMatchObject({
        state: 'approved',
        decision: { by: 'rule:ok', reason: 'rights rule: rights granted' },
        rights: { state: 'granted', held: false },
      });
      // a revoke on the post the grant approved: rejected by the next rule listing it
      await answer(17003, 'revoked');
      expect(await post(17003)).toMatchObject({
        state: 'rejected',
        decision: { by: 'rule:no', reason: 'rights rule: rights revoked' },
        rights: { state: 'revoked' },
      });

      // a rejected post is never brought back by a rule
      await moderate(17004, 'rejected');
      await answer(17004, 'granted');
      expect(await post(17004)).toMatchObject({
        state: 'rejected',
        decision: { by: OPERATOR },
        rights: { state: 'granted' },
      });

      // a decline on an approved post rejects it
      expect((await post(17006)).state).toBe('approved');
      await answer(17006, 'declined');
      expect(await post(17006)).toMatchObject({
        state: 'rejected',
        decision: { by: 'rule:no', reason: 'rights rule: rights declined' },
      });

      // a state no rule lists leaves the post as it was
      await moderate(17007, 'pending');
      const asked = await m.api('POST', '/walls/7011/rights/requests', { postIds: [17007], method: 'manual' });
      expect(data<{ asked: number }>(asked).asked).toBe(1);
      expect(await post(17007)).toMatchObject({
        state: 'pending',
        decision: { by: OPERATOR },
        rights: { state: 'requested' },
      });
    } finally {
      await setRules([]);
      // the apply below counts the wall's pending posts
      await moderate(17007, 'approved');
    }
  });

  it('a post waiting for the image check is left waiting: the check decides it later, with the whole list', async () => {
    await setRules([{ id: 'ok', kind: 'rights', action: 'approve', states: ['granted'] }]);
    try {
      // as ingestion leaves a post whose pictures a picture rule waits for (src/domain/image-rules.ts IMAGE_CHECK_WAIT)
      await m.srv.store.db
        .updateTable('posts')
        .set(decisionColumns(IMAGE_CHECK_WAIT, m.srv.clock.now))
        .where('id', '=', 17025)
        .execute();
      await answer(17025, 'granted');
      expect(await post(17025)).toMatchObject({
        state: 'pending',
        decision: { by: IMAGE_CHECK_BY },
        rights: { state: 'granted' },
      });
    } finally {
      await setRules([]);
      await moderate(17025, 'approved');
    }
  });

  it('the change log sends the decision: post.rights_granted then post.approved; a decline post.rejected', async () => {
    m.srv.app.ctx.webhooks = WEBHOOK_SETTINGS;
    const rx = await new Receiver().start();
    const worker = new WebhookRuntime({ db: m.srv.store.db, config: WEBHOOK_CONFIG });
    const { accountId } = data<{ accountId: number }>(await m.api('GET', '/walls/7011'));
    try {
      const hook = data<{ secret: string }>(
        await m.api('POST', '/webhooks', {
          accountId,
          url: rx.url,
          events: ['post.rights_granted', 'post.rights_declined', 'post.approved', 'post.rejected'],
        }),
        201,
      );
      rx.secret = hook.secret;
      await setRules([
        { id: 'ok', kind: 'rights', action: 'approve', states: ['granted'] },
        { id: 'no', kind: 'rights', action: 'reject', states: ['declined'] },
      ]);
      await moderate(17010, 'pending');
      await answer(17010, 'granted');
      await answer(17012, 'declined');
      await worker.runOnce();
      expect(rx.received.map((r) => [r.type, (r.body as { data: { postId: string } }).data.postId])).toEqual([
        ['post.rights_granted', '17010'],
        ['post.approved', '17010'],
        ['post.rights_declined', '17012'],
        ['post.rejected', '17012'],
      ]);
      expect(rx.received.every((r) => r.verified)).toBe(true);
    } finally {
      await worker.stop();
      await rx.close();
      await setRules([]);
    }
  });

  it('an apply judges stored posts by their rights state (null: none)', async () => {
    await answer(17020, 'granted');
    for (const id of [17020, 17021]) await moderate(id, 'pending');
    await setRules([
      { id: 'ok', kind: 'rights', action: 'approve', states: ['granted'] },
      { id: 'never', kind: 'rights', action: 'reject', states: ['none'] },
    ]);
    try {
      const applied = data<{ counts: { ruleId: string; matched: number; changed: number }[] }>(
        await m.api('POST', '/walls/7011/rules/apply', {}),
      );
      expect(applied.counts).toEqual([
        { ruleId: 'ok', matched: 1, changed: 1 },
        { ruleId: 'never', matched: 1, changed: 1 },
      ]);
      expect(await post(17020)).toMatchObject({
        state: 'approved',
        decision: { by: 'rule:ok', reason: 'rights rule: rights granted' },
      });
      expect(await post(17021)).toMatchObject({
        state: 'rejected',
        decision: { by: 'rule:never', reason: 'rights rule: rights never asked for' },
        rights: { state: null },
      });
    } finally {
      await setRules([]);
    }
  });
});
