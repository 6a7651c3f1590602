// What the audit log keeps of a write: small values as they are, large ones as a digest.
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  AUDIT_SUMMARY_MAX_BYTES,
  AUDIT_VALUE_MAX_BYTES,
  boundedSummary,
  boundedValue,
} from '../../src/domain/audit-summary.js';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

describe('audit summary', () => {
  it('keeps small fields as they are, field by field', () => {
    const summary = { before: { name: 'a', plan: 'free' }, after: { name: 'b', plan: 'widget' }, postIds: [1, 2] };
    expect(boundedSummary(summary)).toEqual(summary);
  });

  it('a large field becomes its digest: sha256 and size of its JSON, and how it starts; the others stay', () => {
    const rules = [{ kind: 'keyword', words: Array.from({ length: 500 }, (_, i) => `word${i}`) }];
    const json = JSON.stringify(rules);
    expect(Buffer.byteLength(json)).toBeGreaterThan(AUDIT_VALUE_MAX_BYTES);
    expect(boundedSummary({ before: { rules: [] }, after: { rules, mode: 'auto' } })).toEqual({
      before: { rules: [] },
      after: {
        rules: {
          truncated: true,
          sha256: sha256(json),
          bytes: Buffer.byteLength(json),
          preview: `${json.slice(0, 200)}…`,
        },
        mode: 'auto',
      },
    });
  });

  it('a preview never ends in half a surrogate pair', () => {
    const text = `${'a'.repeat(198)}😀${'b'.repeat(AUDIT_VALUE_MAX_BYTES)}`;
    const digest = boundedValue(text) as { preview: string };
    // JSON adds the opening quote: the emoji's first half would be character 200
    expect(digest.preview).toBe(`"${'a'.repeat(198)}…`);
  });

  it('many fields just under the bound still make a bounded summary', () => {
    const after = Object.fromEntries(
      Array.from({ length: 20 }, (_, i) => [`f${i}`, 'x'.repeat(AUDIT_VALUE_MAX_BYTES - 10)]),
    );
    const bounded = boundedSummary({ before: null, after });
    expect(Buffer.byteLength(JSON.stringify(bounded))).toBeLessThanOrEqual(AUDIT_SUMMARY_MAX_BYTES);
    expect(Object.keys(bounded.after as object)).toEqual(Object.keys(after));
  });

  it('for any summary of up to 30 fields, the stored JSON stays under the bound (property)', () => {
    fc.assert(
      fc.property(
        fc.dictionary(fc.string({ maxLength: 20 }), fc.oneof(fc.string({ maxLength: 10_000 }), fc.jsonValue()), {
          maxKeys: 30,
        }),
        (after) => {
          const bounded = boundedSummary({ before: null, after, action: 'x' });
          expect(Buffer.byteLength(JSON.stringify(bounded))).toBeLessThanOrEqual(AUDIT_SUMMARY_MAX_BYTES);
        },
      ),
      { numRuns: 200 },
    );
  });
});
