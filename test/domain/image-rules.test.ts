// The picture rules (src/domain/image-rules.ts through compileRules): a post
// with pictures waits for the image check; with the check's facts, the
// highest score of the rule's classes at or over the threshold decides with
// its explained detail, blur holds, a picture without facts holds for a
// human, near-duplicates within the distance and the window match, and the
// rules before a picture rule still decide first.
import { describe, expect, it } from 'vitest';
import { compileRules, completeRules, type Rule, type RuleSubject } from '../../src/domain/rules.js';
import {
  hammingHex,
  hasItemPictures,
  hasPictureRules,
  IMAGE_CHECK_WAIT,
  phashHex,
  type PictureFacts,
} from '../../src/domain/image-rules.js';
import { judgeRows } from '../../src/ingest/arrival.js';
import type { IngestedPost } from '../../src/store/ingest.js';

const subject = (over: Partial<RuleSubject> = {}): RuleSubject => ({
  content: 'hello',
  authorName: 'Ana',
  username: 'ana',
  network: 'Mastodon',
  media: 'image',
  ...over,
});
const facts = (over: Partial<PictureFacts> = {}): PictureFacts => ({
  pictures: [{ scores: { neutral: 0.1, drawing: 0, sexy: 0.85, porn: 0.93, hentai: 0.01 }, problem: null }],
  model: 'nsfwjs mobilenet_v2 4.4.0',
  hasher: 'sharp-phash 2.2.0',
  similar: [],
  ...over,
});
const [image, similar] = completeRules([
  { kind: 'image', action: 'blur' },
  { kind: 'similar_image', action: 'hold' },
]) as [Rule, Rule];

describe('picture rules', () => {
  it('defaults: porn, hentai and sexy at 0.8; distance 6 within 24 h', () => {
    expect(image).toEqual({
      id: 'r1',
      kind: 'image',
      action: 'blur',
      classes: ['porn', 'hentai', 'sexy'],
      threshold: 0.8,
    });
    expect(similar).toEqual({ id: 'r2', kind: 'similar_image', action: 'hold', distance: 6, withinHours: 24 });
  });

  it('a post with pictures waits for the check; one without is not judged by them', () => {
    const rules = compileRules([image]);
    expect(rules.judge(subject())).toEqual(IMAGE_CHECK_WAIT);
    expect(rules.judge(subject({ media: 'text' }))).toBeNull();
    expect(rules.judge(subject({ pictured: false }))).toBeNull();
  });

  it('the highest matching score decides, explained; blur holds', () => {
    const d = compileRules([image]).judge(subject({ pictures: facts() }));
    expect(d).toEqual({
      state: 'pending',
      by: 'rule:r1',
      reason: "held: image 0.93 'porn' ≥ 0.80 — nsfwjs mobilenet_v2 4.4.0",
      detail: {
        rule: 'r1',
        kind: 'image',
        label: 'porn',
        score: 0.93,
        threshold: 0.8,
        model: 'nsfwjs mobilenet_v2 4.4.0',
      },
    });
  });

  it('under the threshold, or a class the rule does not list: no match, the mode decides', () => {
    const only = completeRules([{ kind: 'image', action: 'reject', classes: ['hentai'], threshold: 0.5 }]);
    expect(compileRules(only).decide(subject({ pictures: facts() }), 'auto')).toEqual({
      state: 'approved',
      by: null,
      reason: null,
    });
    const high = completeRules([{ kind: 'image', action: 'reject', threshold: 0.95 }]);
    expect(compileRules(high).judge(subject({ pictures: facts() }))).toBeNull();
  });

  it('a picture without facts: held for a human with why, never approved', () => {
    const d = compileRules([image]).decide(
      subject({
        pictures: facts({ pictures: [{ scores: null, problem: 'the picture could not be fetched: HTTP 404' }] }),
      }),
      'auto',
    );
    expect(d).toEqual({
      state: 'pending',
      by: 'rule:r1',
      reason: 'held: image check could not run — the picture could not be fetched: HTTP 404',
    });
  });

  it('near-duplicates: the nearest within the distance and the window', () => {
    const rules = compileRules([similar]);
    const near = facts({
      similar: [
        { postId: 7, distance: 5, hoursBefore: 3 },
        { postId: 8, distance: 2, hoursBefore: 30 },
        { postId: 9, distance: 12, hoursBefore: 1 },
      ],
    });
    expect(rules.judge(subject({ pictures: near }))).toMatchObject({
      by: 'rule:r2',
      reason: "held: similar_image 5 'post 7' — sharp-phash 2.2.0",
    });
    expect(
      rules.judge(subject({ pictures: facts({ similar: [{ postId: 9, distance: 7, hoursBefore: 1 }] }) })),
    ).toBeNull();
  });

  it('a rule before a picture rule decides first, with no wait', () => {
    const rules = completeRules([
      { kind: 'keyword', action: 'reject', words: ['spam'] },
      { kind: 'image', action: 'hold' },
    ]);
    expect(compileRules(rules).judge(subject({ content: 'spam here' }))).toMatchObject({
      state: 'rejected',
      by: 'rule:r1',
    });
  });

  it('the parse worker makes a post with pictures wait, not one without or one with only an avatar', () => {
    const row = (over: Partial<IngestedPost>) =>
      ({
        content: 'hi',
        author_name: 'A',
        username: 'a',
        network_name: 'RSS',
        media: 'text',
        picture: '',
        file: '',
        file_thumb: '',
        media_file: '',
        children: '[]',
        alt: '',
        user_picture: '',
        repost: 0,
        reply: 0,
        sensitive: 0,
        ...over,
      }) as IngestedPost;
    const rows = [
      row({ media: 'image', picture: 'https://pics.example/a.jpg' }),
      row({ user_picture: 'https://pics.example/me.jpg' }),
    ];
    // no text rule in the list: the text detectors are never asked
    judgeRows(rows, JSON.stringify([image]), { language: () => null, sentiment: () => 0 });
    expect(rows[0]!.arrival).toEqual(IMAGE_CHECK_WAIT);
    expect(rows[1]!.arrival).toBeUndefined();
    expect(hasItemPictures(rows[1]!)).toBe(false);
    expect(hasPictureRules(JSON.stringify([image]))).toBe(true);
    expect(hasPictureRules('[{"kind":"keyword","words":["image"]}]')).toBe(false);
  });

  it('hashes: hex from sharp-phash’s bits, Hamming distance', () => {
    expect(phashHex('1111000000001010')).toBe('f00a');
    expect(hammingHex('ff00ff00ff00ff00', 'ff00ff00ff00ff00')).toBe(0);
    expect(hammingHex('ffffffffffffffff', '0000000000000000')).toBe(64);
    expect(hammingHex('0000000000000001', '0000000000000003')).toBe(1);
  });
});
