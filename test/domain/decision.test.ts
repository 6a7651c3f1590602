import { describe, expect, it } from 'vitest';
import { explainDecision, parseDecisionDetail, type DecisionDetail } from '../../src/domain/decision.js';

const image: DecisionDetail = {
  rule: 'r1',
  kind: 'image',
  label: 'porn',
  score: 0.9134,
  threshold: 0.8,
  model: 'nsfwjs mobilenet_v2 4.4.0',
};

describe('explained decisions', () => {
  it('reads as one line: action, kind, score, label, threshold, model', () => {
    expect(explainDecision('pending', image)).toBe("held: image 0.91 'porn' ≥ 0.80 — nsfwjs mobilenet_v2 4.4.0");
    expect(explainDecision('rejected', image)).toMatch(/^rejected: image/);
  });

  it('leaves out what a kind does not measure', () => {
    const language = { ...image, kind: 'language', label: 'pt', score: null, threshold: null, model: 'eld 2.1.0' };
    expect(explainDecision('pending', language)).toBe("held: language 'pt' — eld 2.1.0");
    const burst = { ...image, kind: 'burst', label: null, score: 10, threshold: 5, model: null };
    expect(explainDecision('pending', burst)).toBe('held: burst 10 ≥ 5');
    // a score under its threshold (sentiment's `below`) reads as such
    const sentiment = { ...image, kind: 'sentiment', label: 'negative', score: -0.84, threshold: -0.5, model: 'm' };
    expect(explainDecision('pending', sentiment)).toBe("held: sentiment -0.84 'negative' < -0.50 — m");
    // the relation is the rule's own comparison, whatever the numbers: a duplicate within its distance
    const duplicate = { ...image, kind: 'duplicate', label: '41', score: 0, threshold: 3, model: 'simhash' };
    expect(explainDecision('pending', duplicate)).toBe("held: duplicate 0 '41' ≤ 3 — simhash");
    expect(explainDecision('pending', { ...duplicate, score: 3 })).toBe("held: duplicate 3 '41' ≤ 3 — simhash");
  });

  it('reads a stored detail back, and nothing from an unreadable one', () => {
    expect(parseDecisionDetail(JSON.stringify(image))).toEqual(image);
    expect(parseDecisionDetail(null)).toBeNull();
    expect(parseDecisionDetail('{not json')).toBeNull();
    expect(parseDecisionDetail('"text"')).toBeNull();
  });
});
