// The image check (src/media/image-check.ts) on a real store (SQLite, and
// PostgreSQL in the postgres project) with pictures served over real HTTP:
// a post that waits for the check is decided by its wall's picture rules
// once its picture is fetched, stored and classified — held, rejected or
// blurred with the detail and the explained reason, or left to the mode —
// near-duplicates of an earlier post's picture are held, a picture that
// cannot be fetched or classified leaves its post held for a human, a
// model change checks pictures again, and the state change reaches the
// change log like any other. The classifier here is a stand-in that scores
// by colour (deterministic); the real one runs in image-check-pool.test.ts.
import { afterEach, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { IMAGE_CHECK_WAIT, IMAGE_MODEL, type ClassScores } from '../../src/domain/image-rules.js';
import type { ImageChecker, CheckResult } from '../../src/media/image-check-pool.js';
import { syncPostMedia } from '../../src/store/media-queue.js';
import { photoJpeg } from './pictures.js';
import { NOW, picture, startQueueHarness, type QueueHarness } from './queue-harness.js';

let h: QueueHarness;
afterEach(async () => {
  await h?.close();
});

const NEUTRAL: ClassScores = { neutral: 0.95, drawing: 0.03, sexy: 0.01, porn: 0.005, hentai: 0.005 };
const PORN: ClassScores = { neutral: 0.02, drawing: 0.01, sexy: 0.05, porn: 0.91, hentai: 0.01 };

/** Scores a mostly red picture porn 0.91, anything else neutral; its perceptual hash from its mean colour. */
class ColourChecker implements ImageChecker {
  readonly model = IMAGE_MODEL;
  calls = 0;
  fail: string | null = null;
  async check(master: Uint8Array): Promise<CheckResult> {
    this.calls++;
    if (this.fail) return { ok: false, reason: this.fail };
    const { channels } = await sharp(master).stats();
    const [r, g, b] = channels.map((c) => c.mean) as [number, number, number];
    const red = r > 150 && g < 100 && b < 100;
    const phash = red ? 'ff00ff00ff00ff00' : g > 150 ? '00ff00ff00ff00ff' : '0f0f0f0f0f0f0f0f';
    return { ok: true, scores: red ? PORN : NEUTRAL, phash };
  }
  async close() {}
}

const flat = (colour: string) =>
  sharp({ create: { width: 64, height: 48, channels: 3, background: colour } })
    .png()
    .toBuffer();

async function setRules(wallId: number, rules: unknown[], moderation: 'auto' | 'manual' = 'auto') {
  await h.store.db
    .updateTable('walls')
    .set({ rules: JSON.stringify(rules), moderation })
    .where('id', '=', wallId)
    .execute();
}

/** A post as ingestion writes one under picture rules: pending, waiting for the check. */
async function waitingPost(wallId: 10 | 20, path: string, createdAt = NOW) {
  const id = await h.post(wallId, {
    media: 'image',
    picture: h.url(path),
    state: IMAGE_CHECK_WAIT.state,
    decided_by: IMAGE_CHECK_WAIT.by,
    decision_reason: IMAGE_CHECK_WAIT.reason,
  });
  await h.store.db.updateTable('posts').set({ created_at: createdAt }).where('id', '=', id).execute();
  await syncPostMedia(h.store.db, [id], NOW);
  return id;
}

const decision = (id: number) =>
  h.store.db
    .selectFrom('posts')
    .select(['state', 'decided_by', 'decision_reason', 'decision_detail'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();

describe('posts waiting for the image check', () => {
  it('an image rule fires: held with the detail and the explained reason; an ordinary picture follows the mode', async () => {
    const checker = new ColourChecker();
    h = await startQueueHarness({ runtime: { imageChecker: checker } });
    await setRules(10, [{ id: 'r1', kind: 'image', action: 'blur', classes: ['porn', 'hentai'], threshold: 0.8 }]);
    h.replies.set('/red.png', picture(await flat('#e01010')));
    h.replies.set('/photo.jpg', picture(await photoJpeg(120, 80), 'image/jpeg'));
    const flagged = await waitingPost(10, '/red.png');
    const ordinary = await waitingPost(10, '/photo.jpg');

    await h.runtime.runOnce();

    expect(await decision(flagged)).toEqual({
      state: 'pending',
      decided_by: 'rule:r1',
      decision_reason: `held: image 0.91 'porn' ≥ 0.80 — ${IMAGE_MODEL}`,
      decision_detail: JSON.stringify({
        rule: 'r1',
        kind: 'image',
        label: 'porn',
        score: 0.91,
        threshold: 0.8,
        model: IMAGE_MODEL,
      }),
    });
    // auto mode: approved, by the mode
    expect(await decision(ordinary)).toMatchObject({ state: 'approved', decided_by: null, decision_reason: null });
    // the approval went through the change log (webhooks deliver it), as every decision does
    expect(await changesOf(ordinary)).toContain('approved');
    expect(h.changed).toContain(10);
    // each picture checked once; another run checks nothing again
    expect(checker.calls).toBe(2);
    await h.runtime.runOnce();
    expect(checker.calls).toBe(2);
  });

  it('reject; and a manual wall keeps an ordinary picture pending, by the mode', async () => {
    h = await startQueueHarness({ runtime: { imageChecker: new ColourChecker() } });
    await setRules(10, [{ id: 'x', kind: 'image', action: 'reject', classes: ['porn'], threshold: 0.5 }], 'manual');
    h.replies.set('/red.png', picture(await flat('#e01010')));
    h.replies.set('/photo.jpg', picture(await photoJpeg(120, 80), 'image/jpeg'));
    const flagged = await waitingPost(10, '/red.png');
    const ordinary = await waitingPost(10, '/photo.jpg');
    await h.runtime.runOnce();
    expect(await decision(flagged)).toMatchObject({ state: 'rejected', decided_by: 'rule:x' });
    expect((await decision(flagged)).decision_reason).toMatch(/^rejected: image 0\.91 'porn' ≥ 0\.50/);
    expect(await decision(ordinary)).toMatchObject({ state: 'pending', decided_by: null });
  });

  it('similar_image: a picture like an earlier post’s within the window is held; outside it, not', async () => {
    h = await startQueueHarness({ runtime: { imageChecker: new ColourChecker() } });
    await setRules(10, [{ id: 's', kind: 'similar_image', action: 'hold', distance: 4, withinHours: 24 }]);
    h.replies.set('/green.png', picture(await flat('#10e010')));
    h.replies.set('/green-again.png', picture(await flat('#12e212')));
    h.replies.set('/green-later.png', picture(await flat('#14e414')));
    const first = await waitingPost(10, '/green.png', NOW - 2 * 3_600_000);
    const again = await waitingPost(10, '/green-again.png', NOW);
    const later = await waitingPost(10, '/green-later.png', NOW + 48 * 3_600_000);
    await h.runtime.runOnce();
    expect(await decision(first)).toMatchObject({ state: 'approved', decided_by: null });
    const held = await decision(again);
    expect(held).toMatchObject({ state: 'pending', decided_by: 'rule:s' });
    expect(held.decision_reason).toBe(`held: similar_image 0 'post ${first}' — sharp-phash 2.2.0`);
    // 48 h after both: outside the window
    expect(await decision(later)).toMatchObject({ state: 'approved', decided_by: null });
  });

  it("the wall's duplicate and burst rules judge a post that waited, against the posts before it", async () => {
    h = await startQueueHarness({ runtime: { imageChecker: new ColourChecker() } });
    // the picture rule first: on arrival the wait was the decision, so the rules after it had not judged yet
    await setRules(10, [
      { id: 'nsfw', kind: 'image', action: 'hold', classes: ['porn'], threshold: 0.8 },
      { id: 'dup', kind: 'duplicate', action: 'reject', within: 60, distance: 3 },
    ]);
    h.replies.set('/photo.jpg', picture(await photoJpeg(120, 80), 'image/jpeg'));
    h.replies.set('/red.png', picture(await flat('#e01010')));
    const text = '<p>Win a free phone today, click the link in our profile to claim the prize</p>';
    const first = await waitingPost(10, '/photo.jpg', NOW - 120_000);
    const repeat = await waitingPost(10, '/photo.jpg', NOW);
    const flagged = await waitingPost(10, '/red.png', NOW + 1000);
    await h.store.db.updateTable('posts').set({ content: text }).where('id', 'in', [first, repeat, flagged]).execute();

    await h.runtime.runOnce();

    expect(await decision(first)).toMatchObject({ state: 'approved', decided_by: null });
    const rejected = await decision(repeat);
    expect(rejected).toMatchObject({ state: 'rejected', decided_by: 'rule:dup' });
    expect(rejected.decision_reason).toBe(`rejected: duplicate 0 '${first}' ≤ 3 — simhash-64`);
    // a rule before the duplicate rule that matches decides first
    expect(await decision(flagged)).toMatchObject({ state: 'pending', decided_by: 'rule:nsfw' });
  });

  it('a picture that cannot be fetched: held for a human with the reason, never approved', async () => {
    h = await startQueueHarness({
      runtime: { imageChecker: new ColourChecker() },
      config: { maxAttempts: 1 },
    });
    await setRules(10, [{ id: 'r1', kind: 'image', action: 'hold' }]);
    const gone = await waitingPost(10, '/missing.png'); // the upstream answers 404
    await h.runtime.runOnce();
    const d = await decision(gone);
    expect(d).toMatchObject({ state: 'pending', decided_by: 'rule:r1', decision_detail: null });
    expect(d.decision_reason).toBe(
      'held: image check could not run — the picture could not be fetched: HTTP 404 from ' + new URL(h.url('/')).host,
    );
  });

  it('the classifier failing (an outage): held for a human with the reason; a new model checks the picture again', async () => {
    const checker = new ColourChecker();
    checker.fail = 'the classifier could not be loaded: out of memory';
    h = await startQueueHarness({ runtime: { imageChecker: checker } });
    await setRules(10, [{ id: 'r1', kind: 'image', action: 'hold' }]);
    h.replies.set('/red.png', picture(await flat('#e01010')));
    const post = await waitingPost(10, '/red.png');
    await h.runtime.runOnce();
    expect(await decision(post)).toMatchObject({
      state: 'pending',
      decided_by: 'rule:r1',
      decision_reason:
        'held: image check could not run — the picture could not be classified: the classifier could not be loaded: out of memory',
    });
    // scores from an earlier model are checked again, in the background
    await h.store.db.updateTable('picture_checks').set({ model: 'nsfwjs mobilenet_v2 4.3.0' }).execute();
    checker.fail = null;
    const calls = checker.calls;
    await h.runtime.runOnce();
    expect(checker.calls).toBe(calls + 1);
    const row = await h.store.db.selectFrom('picture_checks').selectAll().executeTakeFirstOrThrow();
    expect(row).toMatchObject({ model: IMAGE_MODEL, error: null, phash: 'ff00ff00ff00ff00' });
    expect(JSON.parse(row.scores!)).toEqual(PORN);
  });

  it('a wall without picture rules: its pictures are not classified', async () => {
    const checker = new ColourChecker();
    h = await startQueueHarness({ runtime: { imageChecker: checker } });
    h.replies.set('/red.png', picture(await flat('#e01010')));
    const id = await h.post(10, { media: 'image', picture: h.url('/red.png') });
    await syncPostMedia(h.store.db, [id], NOW);
    await h.runtime.runOnce();
    expect(checker.calls).toBe(0);
  });
});

async function changesOf(postId: number): Promise<string[]> {
  const rows = await h.store.db.selectFrom('changes').select('kind').where('post_id', '=', postId).execute();
  return rows.map((r) => r.kind);
}
