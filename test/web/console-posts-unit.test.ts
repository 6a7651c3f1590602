// The console's posts, the rules without a browser: dates relative while
// recent and dates after a week (ui/text.ts), a post's history in words and
// never the API's names (Posts/history.ts), a call to action checked before
// it is sent (Posts/cta.ts), a post's text cut to a length (clipBlocks).
import { describe, expect, it } from 'vitest';
import { ctaFieldsOf, ctaProblems } from '../../web/console/src/screens/Posts/cta.js';
import { actorOf, describeEntry } from '../../web/console/src/screens/Posts/history.js';
import { clipBlocks, dateText, whenText } from '../../web/console/src/ui/text.js';
import type { AuditEntry } from '../../web/console/src/api/records.js';

/** local time, as the operator's browser reads it */
const at = (y: number, m: number, d: number, h = 12, min = 0) => new Date(y, m - 1, d, h, min).getTime();
const iso = (ms: number) => new Date(ms).toISOString();
const NOW = at(2026, 3, 20, 15, 0);
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

describe('whenText and dateText', () => {
  it('says how long ago (or how soon) within a week', () => {
    expect(whenText(iso(NOW - 2_000), NOW)).toBe('just now');
    expect(whenText(iso(NOW - 40_000), NOW)).toBe('40 seconds ago');
    expect(whenText(iso(NOW - 3 * MINUTE), NOW)).toBe('3 minutes ago');
    expect(whenText(iso(NOW + 5 * MINUTE), NOW)).toBe('in 5 minutes');
    expect(whenText(iso(NOW - HOUR), NOW)).toBe('1 hour ago');
    expect(whenText(iso(NOW - 6 * DAY), NOW)).toBe('6 days ago');
  });

  it('gives the date and time from a week on, with the year when it is another', () => {
    expect(whenText(iso(at(2026, 3, 13, 9, 5)), NOW)).toBe('13 Mar, 09:05');
    expect(whenText(iso(at(2026, 1, 2, 18, 30)), NOW)).toBe('2 Jan, 18:30');
    expect(whenText(iso(at(2025, 12, 24, 8, 0)), NOW)).toBe('24 Dec 2025, 08:00');
    expect(whenText(iso(NOW + 30 * DAY), NOW)).toBe('19 Apr, 15:00');
    expect(dateText(iso(NOW - 30 * MINUTE), NOW)).toBe('20 Mar, 14:30');
    expect(whenText('not a date', NOW)).toBe('');
  });
});

describe('clipBlocks', () => {
  it('keeps the blocks up to a length, the last one cut with …', () => {
    const blocks = [
      { text: 'Your questions, answered', title: true },
      { text: 'Everything about the harbour stage.', title: false },
      { text: 'More.', title: false },
    ];
    expect(clipBlocks(blocks, 500)).toEqual(blocks);
    expect(clipBlocks(blocks, 34)).toEqual([blocks[0], { text: 'Everything…', title: false }]);
    expect(clipBlocks(blocks, 24)).toEqual([blocks[0]]);
  });
});

describe('a post’s history in words', () => {
  const entry = (action: string, summary: Record<string, unknown>, targetType = 'post'): AuditEntry => ({
    id: 1,
    at: iso(NOW),
    tokenName: 'pia',
    action,
    targetType,
    targetId: targetType === 'post' ? 17 : 3,
    accountId: 1,
    summary: summary as AuditEntry['summary'],
  });

  it('names each change of the post, its reason and its text before and after', () => {
    expect(
      describeEntry(
        entry('post.update', { before: { state: 'pending' }, after: { state: 'approved', reason: null } }),
        17,
      ),
    ).toEqual({ title: 'Approved', lines: [] });
    expect(
      describeEntry(
        entry('post.update', { before: { state: 'approved' }, after: { state: 'rejected', reason: 'spam' } }),
        17,
      ),
    ).toEqual({ title: 'Rejected', lines: ['Reason: spam'] });
    expect(
      describeEntry(
        entry('post.update', {
          before: { pinned: false, highlighted: false },
          after: { pinned: true, highlighted: true },
          wallId: 3,
        }),
        17,
      ).title,
    ).toBe('Pinned · Highlighted');
    expect(describeEntry(entry('post.update', { before: { hidden: true }, after: { hidden: false } }), 17).title).toBe(
      'Shown on the wall again',
    );
    const cta = { color: '#fff', background: '#000', status: 1, url: 'https://t.example/x', text: 'Tickets' };
    expect(describeEntry(entry('post.update', { before: { cta: null }, after: { cta } }), 17).title).toBe(
      'Call to action: “Tickets” → https://t.example/x',
    );
    expect(describeEntry(entry('post.update', { before: { cta }, after: { cta: null } }), 17).title).toBe(
      'Call to action removed',
    );
    expect(
      describeEntry(
        entry('post.update', {
          before: { content: '<p>Old</p>', updatedAt: 'a' },
          after: { content: '<p>New</p>', updatedAt: 'b' },
        }),
        17,
        (html) => html.replace(/<[^>]+>/g, ''),
      ),
    ).toEqual({ title: 'Text corrected', lines: ['Before: Old', 'After: New'] });
    expect(describeEntry(entry('post.update', { before: {}, after: {} }), 17).title).toBe('Saved without a change');
  });

  it('names a bulk action that included the post, with the others, and whether it changed this post', () => {
    const bulk = (action: string, before: Record<string, unknown>, after: Record<string, unknown>, postIds: number[]) =>
      entry(`posts.bulk.${action}`, { before, after, postIds }, 'wall');
    expect(
      describeEntry(bulk('approve', { 17: { state: 'pending' } }, { state: 'approved', reason: 'ok' }, [17]), 17),
    ).toEqual({ title: 'Approved', lines: ['Reason: ok'] });
    expect(describeEntry(bulk('hide', { 17: { hidden: false } }, { hidden: true }, [5, 17, 9]), 17)).toEqual({
      title: 'Hidden from the wall',
      lines: ['Together with 2 other posts, in one action.'],
    });
    expect(describeEntry(bulk('pin', { 5: { pinned: false } }, { pinned: true }, [5, 17]), 17)).toEqual({
      title: 'Pinned',
      lines: ['Together with 1 other post, in one action.', 'This post already was so: nothing changed for it.'],
    });
    expect(describeEntry(bulk('setCta', {}, { cta: { text: 'Buy', url: 'https://s.example' } }, [17]), 17).title).toBe(
      'Call to action: “Buy” → https://s.example',
    );
  });

  it('never shows the API’s field or action names', () => {
    const entries = [
      entry('post.tags.add', { before: [], after: [{ productId: 1 }] }),
      entry('post.tags.remove', { before: [{ productId: 1 }], after: [] }),
      entry('post.something.new', { before: {}, after: {} }),
      entry('post.update', { before: { alt: '' }, after: { alt: 'A lake' } }),
      entry('posts.bulk.somethingNew', { before: {}, after: {}, postIds: [17] }, 'wall'),
    ];
    for (const e of entries) {
      const { title, lines } = describeEntry(e, 17);
      expect([title, ...lines].join('\n')).not.toMatch(/\b[a-z]+\.[a-zA-Z]+|\b(alt|cta|postIds|productId)\b/);
    }
    expect(actorOf('cli')).toBe('the command line');
    expect(actorOf('pia')).toBe('pia');
  });
});

describe('a call to action, checked before it is sent', () => {
  const ok = { ...ctaFieldsOf(null, '#8a4b16'), 'cta.text': 'Get tickets', 'cta.url': 'https://tickets.example.com' };

  it('starts from the wall’s accent, white text', () => {
    expect(ctaFieldsOf(null, '#8a4b16')).toEqual({
      'cta.text': '',
      'cta.url': '',
      'cta.background': '#8a4b16',
      'cta.color': '#ffffff',
    });
    expect(ctaFieldsOf(null, null)['cta.background']).toBe('#0b57d0');
  });

  it('names each problem under its field, in words', () => {
    expect(ctaProblems(ok)).toEqual({});
    expect(ctaProblems({ ...ok, 'cta.text': '  ' })).toEqual({
      'cta.text': 'Enter the text of the button, e.g. “Shop the look”.',
    });
    expect(ctaProblems({ ...ok, 'cta.text': 'x'.repeat(201) })['cta.text']).toMatch(/200 characters/);
    for (const url of ['tickets.example.com/harbour', 'javascript:alert(1)', 'ftp://files.example.com', 'https://'])
      expect(ctaProblems({ ...ok, 'cta.url': url }), url).toEqual({
        'cta.url': 'Enter the full address of a web page, starting with https:// (e.g. https://shop.example.com).',
      });
    expect(ctaProblems({ ...ok, 'cta.url': '' })['cta.url']).toBe('Enter the address of the page the button opens.');
    expect(ctaProblems({ ...ok, 'cta.background': 'blue', 'cta.color': '#fff' })).toEqual({
      'cta.background': 'Enter the button colour as # and 6 hex digits, e.g. #0b57d0.',
    });
  });
});
