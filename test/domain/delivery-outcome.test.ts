// What a delivery attempt's error says: the HTTP status, or one sentence for any failure without an answer.
import { describe, expect, it } from 'vitest';
import { answeredError, NO_ANSWER, shownError } from '../../src/domain/delivery-outcome.js';

describe('delivery outcome', () => {
  it('names the HTTP status answered, and that redirects are not followed', () => {
    expect(answeredError(503)).toBe('the endpoint answered 503');
    expect(answeredError(302)).toBe('the endpoint answered 302 (redirects are not followed)');
  });

  it('shows every other stored error, socket texts written before this rule among them, as NO_ANSWER', () => {
    for (const answered of [answeredError(401), answeredError(301)]) expect(shownError(answered)).toBe(answered);
    for (const stored of [
      'ECONNREFUSED connect ECONNREFUSED 10.0.0.7:8080',
      'UND_ERR_SOCKET other side closed',
      'refused: 127.0.0.1 is a loopback address',
      'no answer within 10000 ms',
      'failed',
      'the endpoint answered 503 and more',
    ])
      expect(shownError(stored)).toBe(NO_ANSWER);
    expect(shownError(null)).toBeNull();
  });
});
