// A webhook URL as viewers and the audit log see it: origin and path.
import { describe, expect, it } from 'vitest';
import { redactedSummary, redactedUrl, urlAs } from '../../src/domain/webhook-url.js';

describe('webhook URLs for who may not edit them', () => {
  it('keep origin and path, drop query and fragment', () => {
    expect(redactedUrl('https://hooks.example:8443/a/b?token=t0k&x=1#frag')).toBe('https://hooks.example:8443/a/b');
    expect(redactedUrl('http://[::1]:9/hook?t=1')).toBe('http://[::1]:9/hook');
    expect(redactedUrl('https://hooks.example?token=t0k')).toBe('https://hooks.example/');
    expect(redactedUrl('not a url')).toBe('');
    expect(urlAs('https://h.example/x?t=1', 'full')).toBe('https://h.example/x?t=1');
    expect(urlAs('https://h.example/x?t=1', 'redacted')).toBe('https://h.example/x');
  });

  it('redact the url of an audit summary’s before and after, and nothing else', () => {
    expect(
      redactedSummary({
        before: { url: 'https://h.example/a?t=1', events: ['post.hidden'] },
        after: { url: 'https://h.example/b?t=2' },
        eventId: 'evt_1',
      }),
    ).toEqual({
      before: { url: 'https://h.example/a', events: ['post.hidden'] },
      after: { url: 'https://h.example/b' },
      eventId: 'evt_1',
    });
    expect(redactedSummary({ before: null, after: null, status: 'delivered' })).toEqual({
      before: null,
      after: null,
      status: 'delivered',
    });
  });
});
