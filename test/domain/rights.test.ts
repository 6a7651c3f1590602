// Rights management's pure rules: what an author's reply answers, the
// request text and its template's problems, the hold, and who may be asked.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_RIGHTS_SETTINGS,
  RIGHTS_REQUIREMENTS,
  RIGHTS_STATES,
  answerOf,
  askRefusal,
  authorKey,
  dayStart,
  isHeld,
  mayRequest,
  requestText,
  stateAfterAnswer,
  templateProblems,
  type RightsState,
} from '../../src/domain/rights.js';

const HARBOR = { grantHashtag: 'YesHarbor', declineWords: ['no', 'no thanks', '#NoThanks', 'non'] };

describe('answerOf', () => {
  it.each([
    ['#YesHarbor', 'grant'],
    ['#yesharbor', 'grant'],
    ['#YESHARBOR!', 'grant'],
    ['Sure (#YesHarbor)', 'grant'],
    ['@brand #YesHarbor', 'grant'],
    // the hashtag wins over a decline word: it is the deliberate act asked for
    ['#YesHarbor no problem!', 'grant'],
    ['No thanks. Actually #YesHarbor', 'grant'],
    // a longer tag, or the tag glued to a word, is not the grant hashtag
    ['#yesharborx', null],
    ['#YesHarbor_2', null],
    ['#YesHarbor2', null],
    ['x#YesHarbor', null],
    ['YesHarbor', null],
    // decline words are whole words
    ['no', 'decline'],
    ['No.', 'decline'],
    ['NO THANKS', 'decline'],
    ['no thanks!', 'decline'],
    ['#NoThanks', 'decline'],
    ['#nothanks', 'decline'],
    ['Non, merci', 'decline'],
    ['nothing to say', null],
    ['I know', null],
    ['nonchalant', null],
    ['#no', null],
    ['#NoThanksAtAll', null],
    ['what do you mean?', null],
    ['', null],
  ])('%j → %s', (text, answer) => {
    expect(answerOf(text, HARBOR)).toBe(answer);
  });

  it('folds Unicode: full-width and compatibility forms, a decomposed accent, letters of any script around a word', () => {
    expect(answerOf('＃ＹｅｓＨａｒｂｏｒ', HARBOR)).toBe('grant');
    expect(answerOf('ＮＯ', HARBOR)).toBe('decline');
    // "nó" written as n, o and a combining accent is one word, not "no"
    expect(answerOf('no\u0301', HARBOR)).toBe(null);
    expect(answerOf('Ñno', HARBOR)).toBe(null);
    expect(answerOf('Дa no', HARBOR)).toBe('decline');
    expect(answerOf('#Oui', { grantHashtag: 'Oui', declineWords: ['non'] })).toBe('grant');
    expect(answerOf('#JáSim', { grantHashtag: 'jásim', declineWords: [] })).toBe('grant');
    expect(answerOf('#JáSimm', { grantHashtag: 'jásim', declineWords: [] })).toBe(null);
  });

  it('an empty decline word declines nothing', () => {
    expect(answerOf('anything', { grantHashtag: 'Yes', declineWords: ['', '  '] })).toBe(null);
  });

  it('property: the grant hashtag between spaces grants, whatever surrounds it', () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), (before, after) => {
        expect(answerOf(`${before} #YesHarbor ${after}`, HARBOR)).toBe('grant');
      }),
    );
  });

  it('property: case does not matter (ASCII)', () => {
    const ascii = fc.string({ unit: fc.constantFrom(...'abcnoNOyesHARBOR #!.,x'.split('')) });
    fc.assert(
      fc.property(ascii, (text) => {
        expect(answerOf(text.toUpperCase(), HARBOR)).toBe(answerOf(text.toLowerCase(), HARBOR));
      }),
    );
  });

  it('property: a text with no `#` and no `n` answers nothing', () => {
    const letters = fc.string({ unit: fc.constantFrom(...'abcdefghijklmopqrstuvwxyz ABCO.!?,'.split('')) });
    fc.assert(
      fc.property(letters, (text) => {
        expect(answerOf(text, HARBOR)).toBe(null);
      }),
    );
  });
});

describe('requestText and templateProblems', () => {
  const settings = { ...DEFAULT_RIGHTS_SETTINGS, grantHashtag: 'YesHarbor', brand: 'Harbor Coffee' };

  it('fills the fields: the handle as a mention, the hashtag, the brand, the terms when there are some', () => {
    expect(requestText(settings, { username: 'ana@social.example', authorName: 'Ana Lima' })).toBe(
      'Hi @ana@social.example! We love this post and would like to show it on our site. Reply #YesHarbor to agree to Harbor Coffee using it.',
    );
    expect(
      requestText(
        { ...settings, termsUrl: 'https://harbor.example/ugc-terms' },
        { username: '@ana.bsky.social', authorName: 'Ana' },
      ),
    ).toBe(
      'Hi @ana.bsky.social! We love this post and would like to show it on our site. Reply #YesHarbor to agree to Harbor Coffee using it. Terms: https://harbor.example/ugc-terms',
    );
    // no handle: the author's name
    expect(requestText({ ...settings, template: '{author}: {hashtag}?' }, { username: ' ', authorName: 'Ana' })).toBe(
      'Ana: #YesHarbor?',
    );
    // a field twice, and text that only looks like a field
    expect(
      requestText({ ...settings, template: '{brand} {brand} {nope} #{hashtag}' }, { username: 'a', authorName: '' }),
    ).toBe('Harbor Coffee Harbor Coffee {nope} ##YesHarbor');
  });

  it('property: the default template always says how to grant and leaves no field unfilled', () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), (username, authorName) => {
        const text = requestText(settings, { username, authorName });
        expect(text).toContain('#YesHarbor');
        expect(text).not.toMatch(/\{(author|hashtag|brand|terms)\}/);
      }),
    );
  });

  it('a template must say how to grant and use known fields only', () => {
    expect(templateProblems(DEFAULT_RIGHTS_SETTINGS)).toEqual([]);
    expect(templateProblems({ template: 'Reply #yesharbor please', grantHashtag: 'YesHarbor' })).toEqual([]);
    expect(templateProblems({ template: 'May we use it?', grantHashtag: 'YesHarbor' })).toEqual([
      'template must say how to grant: put {hashtag} (or the grant hashtag itself) in it',
    ]);
    expect(templateProblems({ template: '{hashtag} {name} {author} {}', grantHashtag: 'Y' })).toEqual([
      'template has unknown fields: {name}, {}; use {author}, {hashtag}, {brand}, {terms}',
    ]);
  });
});

describe('states and the hold', () => {
  it('an answer moves the state; a deleted or emptied answer revokes a grant and leaves a decline', () => {
    expect(stateAfterAnswer('requested', 'grant')).toBe('granted');
    expect(stateAfterAnswer('requested', 'decline')).toBe('declined');
    expect(stateAfterAnswer('granted', 'decline')).toBe('declined');
    expect(stateAfterAnswer('granted', 'deleted')).toBe('revoked');
    expect(stateAfterAnswer('granted', null)).toBe('revoked');
    expect(stateAfterAnswer('declined', 'deleted')).toBe('declined');
    expect(stateAfterAnswer('requested', null)).toBe('requested');
  });

  it('only a post never asked, or whose request expired, may be asked', () => {
    expect(RIGHTS_STATES.filter(mayRequest)).toEqual(['expired']);
    expect(mayRequest(null)).toBe(true);
  });

  it('property: a post is held exactly when its wall requires rights it lacks', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...RIGHTS_REQUIREMENTS),
        fc.constantFrom<RightsState | null>(null, ...RIGHTS_STATES),
        fc.boolean(),
        (requirement, state, shoppable) => {
          const needsGrant = requirement === 'all' || (requirement === 'shoppable' && shoppable);
          expect(isHeld(requirement, state, shoppable)).toBe(needsGrant && state !== 'granted');
        },
      ),
    );
  });
});

describe('askRefusal', () => {
  const limits = { perAuthorPerDay: 1, perDay: 3 };
  const ask = (over: Partial<Parameters<typeof askRefusal>[0]>) =>
    askRefusal({ optedOut: null, state: null, askedAuthorToday: 0, askedToday: 0, settings: limits, ...over });

  it('says why, in words', () => {
    expect(ask({})).toBe(null);
    expect(ask({ optedOut: 'declined' })).toBe('the author declined before and is never asked again');
    expect(ask({ optedOut: 'blocked' })).toBe('the author blocked the brand and is never asked again');
    expect(ask({ optedOut: 'operator' })).toBe('the author is on the opt-out list');
    expect(ask({ state: 'requested' })).toBe('rights are already requested');
    expect(ask({ state: 'granted' })).toBe('rights are already granted');
    expect(ask({ state: 'expired' })).toBe(null);
    expect(ask({ askedAuthorToday: 1 })).toBe('this author was asked 1 time today (the limit is 1 a day)');
    expect(ask({ askedAuthorToday: 2, settings: { ...limits, perAuthorPerDay: 2 } })).toBe(
      'this author was asked 2 times today (the limit is 2 a day)',
    );
    expect(ask({ askedToday: 3 })).toBe('the account sent 3 requests today (the limit is 3 a day)');
    // the opt-out is said first: it is for good, the limits are for today
    expect(ask({ optedOut: 'declined', askedToday: 9, state: 'declined' })).toBe(
      'the author declined before and is never asked again',
    );
  });

  it('property: asking is allowed exactly when no rule says no', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(null, 'declined' as const, 'blocked' as const, 'operator' as const),
        fc.constantFrom<RightsState | null>(null, ...RIGHTS_STATES),
        fc.nat(5),
        fc.nat(60),
        fc.integer({ min: 1, max: 5 }),
        fc.integer({ min: 1, max: 50 }),
        (optedOut, state, askedAuthorToday, askedToday, perAuthorPerDay, perDay) => {
          const allowed =
            optedOut === null &&
            (state === null || state === 'expired') &&
            askedAuthorToday < perAuthorPerDay &&
            askedToday < perDay;
          const refusal = askRefusal({
            optedOut,
            state,
            askedAuthorToday,
            askedToday,
            settings: { perAuthorPerDay, perDay },
          });
          expect(refusal === null).toBe(allowed);
        },
      ),
    );
  });

  it('the limits count from UTC midnight; an author is known by network and folded handle', () => {
    const at = Date.UTC(2026, 0, 15, 23, 59, 59, 999);
    expect(dayStart(at)).toBe(Date.UTC(2026, 0, 15));
    expect(dayStart(Date.UTC(2026, 0, 16))).toBe(Date.UTC(2026, 0, 16));
    expect(authorKey('Mastodon', ' @Ana@Social.Example ')).toBe('mastodon:ana@social.example');
    expect(authorKey('Bluesky', 'ana.bsky.social')).toBe(authorKey('bluesky', '@ANA.bsky.social'));
  });
});
