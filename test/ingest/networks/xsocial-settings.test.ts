// The connector settings of X, Reddit, Tumblr and Flickr: what is refused,
// in words that name the setting of the feed's own kind.
import { describe, expect, it } from 'vitest';
import { connectorProblem } from '../../../src/schemas/connectors.js';

describe('x, reddit, tumblr and flickr settings', () => {
  it('accepts each network’s settings', () => {
    for (const ok of [
      { kind: 'x', connectionId: 1, query: '#harbourfest -is:retweet', maxPostsPerPoll: 50, deletionChecks: 0 },
      { kind: 'reddit', subreddit: 'trailrunning' },
      { kind: 'reddit', search: 'ultra', connectionId: 2, apiBaseUrl: 'http://127.0.0.1:8080' },
      { kind: 'tumblr', connectionId: 3, tag: 'harbourfest' },
      { kind: 'flickr', connectionId: 4, tags: 'a,b', tagMode: 'all' },
      { kind: 'flickr', connectionId: 4, userId: '12345678@N01' },
    ])
      expect(connectorProblem(ok), JSON.stringify(ok)).toBeNull();
  });

  it('names what is wrong against the kind’s own fields', () => {
    expect(connectorProblem({ kind: 'x', query: 'a' })).toBe('connector must have required properties connectionId');
    expect(connectorProblem({ kind: 'x', connectionId: 1 })).toBe('connector must have required properties query');
    expect(connectorProblem({ kind: 'x', connectionId: 1, query: 'q', maxPostsPerPoll: 5 })).toBe(
      'maxPostsPerPoll must be >= 10',
    );
    expect(connectorProblem({ kind: 'reddit' })).toBe('at least one of subreddit, search is required');
    expect(connectorProblem({ kind: 'reddit', subreddit: 'r/trail running' })).toMatch(/^subreddit must match pattern/);
    expect(connectorProblem({ kind: 'tumblr', connectionId: 1 })).toBe('connector must have required properties tag');
    expect(connectorProblem({ kind: 'flickr', connectionId: 2 })).toBe('at least one of tags, userId is required');
    expect(connectorProblem({ kind: 'flickr', connectionId: 2, userId: 'bob' })).toMatch(/^userId must match pattern/);
    expect(connectorProblem({ kind: 'flickr', connectionId: 2, tags: 'a', tagMode: 'some' })).toMatch(/^tagMode /);
    expect(connectorProblem({ kind: 'lemmy', instance: 'https://l.example' })).toBe(
      'connector must have required properties community',
    );
  });
});
