// The Graph API parts the three Meta connectors share (src/ingest/meta/graph.ts)
// and their settings' rules, as pure functions.
import { said } from '../../../src/ingest/upstream-errors.js';
import { describe, expect, it } from 'vitest';
import { CredentialError, UpstreamError } from '../../../src/ingest/connector.js';
import {
  graphFailure,
  readGraphError,
  readUsage,
  usageWaitMs,
  type GraphError,
} from '../../../src/ingest/meta/graph.js';
import { instagramPost } from '../../../src/ingest/meta/instagram.js';
import { connectorProblem } from '../../../src/schemas/connectors.js';

const TOKEN = 'EAAGm0PX4ZCpsBAsecretZBq3Yw';
const error = (code: number, subcode: number | null = null, message = 'm'): GraphError => ({
  message,
  type: 'OAuthException',
  code,
  subcode,
  userMessage: '',
  fbtraceId: 'Ab1',
});

describe('Graph API errors', () => {
  it('maps code 190 by its subcode, 10 and 200–299 to a permission, the rate-limit codes to a wait', () => {
    const problem = (e: GraphError) => {
      const err = graphFailure('Instagram', 400, e, TOKEN, null);
      return err instanceof CredentialError ? err.problem : err.constructor.name;
    };
    expect(problem(error(190, 463))).toBe('expired');
    expect(problem(error(190, 458))).toBe('revoked');
    expect(problem(error(190, 460))).toBe('revoked');
    expect(problem(error(190, 467))).toBe('invalid');
    expect(problem(error(190))).toBe('invalid');
    expect(problem(error(10))).toBe('permission');
    expect(problem(error(200))).toBe('permission');
    expect(problem(error(299))).toBe('permission');
    for (const code of [4, 17, 32, 613, 80001, 80002, 80014]) {
      const err = graphFailure('Facebook', 400, error(code), TOKEN, 60_000);
      expect(err).toBeInstanceOf(UpstreamError);
      expect(err.message).toBe(`Facebook rate limit reached (code ${code}): polls wait until access is regained`);
      expect((err as UpstreamError).retryAfterMs).toBe(60_000);
    }
    expect(graphFailure('Instagram', 400, error(100, 33, 'Object does not exist'), TOKEN, null).message).toBe(
      'HTTP 400 from Instagram (Object does not exist) (code 100/33)',
    );
  });

  it('never repeats the token an upstream message quotes', () => {
    const err = graphFailure('Threads', 400, error(1, null, `bad request for ${TOKEN}`), TOKEN, null);
    expect(err.message).not.toContain(TOKEN);
    expect(said(`see https://x.example/?access_token=${TOKEN}&a=1`)).toBe('see https://x.example/?access_token=…&a=1');
    // the secrets go before the cut to length: none is left in part
    expect(said(`${'x'.repeat(190)} ${TOKEN}`, [TOKEN], 200)).toBe(`${'x'.repeat(190)} …`);
    expect(said('two\nlines\u0007', [])).toBe('two lines ');
    expect(said(42)).toBe('');
  });

  it('reads the error body, and nothing from a body of another shape', () => {
    const body = (text: string) => ({ bytes: Buffer.from(text), headers: { 'content-type': 'application/json' } });
    expect(
      readGraphError(
        body('{"error":{"message":"Expired","type":"OAuthException","code":190,"error_subcode":463,"fbtrace_id":"x"}}'),
      ),
    ).toEqual({ message: 'Expired', type: 'OAuthException', code: 190, subcode: 463, userMessage: '', fbtraceId: 'x' });
    expect(readGraphError(body('{"error":"invalid_token"}'))).toBeNull();
    expect(readGraphError(body('<html>'))).toBeNull();
  });
});

describe('usage headers', () => {
  it('take the highest use and the longest time to regain access of every header', () => {
    expect(
      readUsage({
        'x-app-usage': '{"call_count":28,"total_time":25,"total_cputime":25}',
        'x-business-use-case-usage':
          '{"112233":[{"type":"pages","call_count":85,"total_cputime":10,"total_time":12,"estimated_time_to_regain_access":0}],"445566":[{"type":"instagram","call_count":5,"total_cputime":1,"total_time":2,"estimated_time_to_regain_access":12}]}',
      }),
    ).toEqual({ percent: 85, regainMinutes: 12 });
    expect(readUsage({ 'x-app-usage': 'not json' })).toEqual({ percent: 0, regainMinutes: 0 });
    expect(readUsage({})).toBeNull();
  });

  it('put the next poll off from 80 % on, and until access is regained', () => {
    expect(usageWaitMs({ percent: 79, regainMinutes: 0 })).toBeNull();
    expect(usageWaitMs({ percent: 80, regainMinutes: 0 })).toBe(10 * 60_000);
    expect(usageWaitMs({ percent: 90, regainMinutes: 0 })).toBe(35 * 60_000);
    expect(usageWaitMs({ percent: 100, regainMinutes: 0 })).toBe(60 * 60_000);
    expect(usageWaitMs({ percent: 100, regainMinutes: 7 })).toBe(7 * 60_000);
  });
});

describe('settings and mapping', () => {
  it('checks what each Meta feed needs', () => {
    const ig = { kind: 'instagram', connectionId: 1 };
    expect(connectorProblem({ ...ig, follow: 'hashtag', hashtag: '#tonewood' })).toBeNull();
    expect(connectorProblem({ ...ig, follow: 'hashtag' })).toBe('hashtag is required to follow a hashtag');
    expect(connectorProblem({ ...ig, follow: 'media', order: 'top' })).toBe(
      'hashtag and order are for follow: hashtag only',
    );
    expect(connectorProblem({ ...ig, follow: 'hashtag', hashtag: 'two words' })).toMatch(/^hashtag /);
    expect(connectorProblem({ kind: 'instagram', follow: 'media' })).toMatch(/connectionId/);
    const th = { kind: 'threads', connectionId: 2 };
    expect(connectorProblem({ ...th, keyword: 'tonewood', order: 'top' })).toBeNull();
    expect(connectorProblem({ ...th, keyword: 'a', username: 'b' })).toBe(
      'exactly one of keyword, username is required',
    );
    expect(connectorProblem({ ...th, username: 'b', order: 'top' })).toBe('order is for a keyword search only');
    expect(connectorProblem({ kind: 'facebook', connectionId: 3, pageId: 'not-an-id' })).toMatch(/^pageId /);
    expect(connectorProblem({ kind: 'facebook', connectionId: 3 })).toBeNull();
  });

  it('a video whose media_url Meta withholds keeps its poster as an image', () => {
    const post = instagramPost({
      id: '1',
      media_type: 'VIDEO',
      thumbnail_url: 'https://scontent.cdninstagram.com/t.jpg',
      permalink: 'https://www.instagram.com/reel/X/',
      timestamp: '2026-01-15T11:00:00+0000',
    });
    expect(post?.media).toEqual([{ kind: 'image', url: 'https://scontent.cdninstagram.com/t.jpg', thumb: '' }]);
    expect(post?.createdAt).toBe(Date.UTC(2026, 0, 15, 11));
  });
});
