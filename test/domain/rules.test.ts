// The rule engine on its own: each kind, the order of rules, the mode as the
// fallback, Unicode and accents in keywords.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileRules, foldText, ruleText, type Rule, type RuleSubject } from '../../src/domain/rules.js';

const post = (over: Partial<RuleSubject> = {}): RuleSubject => ({
  content: 'A quiet morning at the harbour',
  authorName: 'Ana Lima',
  username: 'ana@m.example',
  network: 'Mastodon',
  media: 'text',
  ...over,
});
const decide = (rules: Rule[], subject: RuleSubject, mode: 'auto' | 'manual' = 'auto') =>
  compileRules(rules).decide(subject, mode);

describe('moderation rules', () => {
  it('no rule: the mode decides (auto → approved, manual → pending), with no decision recorded', () => {
    expect(decide([], post())).toEqual({ state: 'approved', by: null, reason: null });
    expect(decide([], post(), 'manual')).toEqual({ state: 'pending', by: null, reason: null });
  });

  it('keyword: whole words and phrases, case- and accent-insensitive, in content and author name; any or all', () => {
    const any: Rule = { id: 'k', kind: 'keyword', action: 'reject', words: ['spoiler', 'Free Money'], match: 'any' };
    expect(decide([any], post({ content: 'SPOILER: he lives' }))).toEqual({
      state: 'rejected',
      by: 'rule:k',
      reason: 'keyword rule: a keyword matched',
    });
    expect(decide([any], post({ content: '<p>get <b>free</b>   money!</p>'.replace(/<[^>]*>/g, '') })).state).toBe(
      'rejected',
    );
    expect(decide([any], post({ content: 'spoilers are fine' })).state).toBe('approved'); // whole words only
    expect(decide([any], post({ content: 'free, then money' })).state).toBe('approved'); // a phrase is consecutive words
    expect(decide([any], post({ authorName: 'Spoiler Bot' })).state).toBe('rejected');
    const all: Rule = { id: 'a', kind: 'keyword', action: 'hold', words: ['crème', 'brûlée'], match: 'all' };
    expect(decide([all], post({ content: 'CREME and brulee tonight' })).state).toBe('pending');
    expect(decide([all], post({ content: 'crème only' })).state).toBe('approved');
    const accented: Rule = {
      id: 'u',
      kind: 'keyword',
      action: 'reject',
      words: ['cafe', 'İstanbul', 'ｆｕｌｌ'],
      match: 'any',
    };
    expect(decide([accented], post({ content: 'Le Café de Flore' })).state).toBe('rejected');
    expect(decide([accented], post({ content: 'Cafe\u0301 decomposed' })).state).toBe('rejected');
    expect(decide([accented], post({ content: 'full width' })).state).toBe('rejected');
    expect(decide([accented], post({ content: 'from istanbul' })).state).toBe('rejected');
    expect(decide([accented], post({ content: 'cafeteria' })).state).toBe('approved');
    expect(foldText('Ça Übergröße')).toBe('ca ubergroße');
  });

  it('author: usernames on one network or on every network (null), @ and case ignored', () => {
    const mastodon: Rule = {
      id: 'm',
      kind: 'author',
      action: 'reject',
      network: 'Mastodon',
      usernames: ['@Troll@m.example'],
    };
    const everywhere: Rule = { id: 'e', kind: 'author', action: 'hold', network: null, usernames: ['spammer'] };
    expect(decide([mastodon], post({ username: 'troll@m.example' })).state).toBe('rejected');
    expect(decide([mastodon], post({ username: 'troll@m.example', network: 'Bluesky' })).state).toBe('approved');
    expect(decide([everywhere], post({ username: 'SPAMMER', network: 'RSS' })).state).toBe('pending');
    const allow: Rule = { id: 'ok', kind: 'author', action: 'approve', network: null, usernames: ['ana@m.example'] };
    expect(decide([allow], post(), 'manual')).toMatchObject({ state: 'approved', by: 'rule:ok' });
  });

  it('profanity, media, repost, reply, sensitive, length', () => {
    const profanity: Rule = { id: 'p', kind: 'profanity', action: 'reject', languages: ['en'] };
    expect(decide([profanity], post({ content: 'what the fuck' })).state).toBe('rejected');
    expect(decide([profanity], post({ content: 'fuuuuck this' })).state).toBe('rejected');
    expect(decide([profanity], post()).state).toBe('approved');

    const anyMedia: Rule = { id: 'm', kind: 'media', action: 'hold', require: 'any' };
    const images: Rule = { id: 'i', kind: 'media', action: 'reject', require: 'image' };
    const videos: Rule = { id: 'v', kind: 'media', action: 'reject', require: 'video' };
    expect(decide([anyMedia], post({ media: 'text' })).state).toBe('pending');
    expect(decide([anyMedia], post({ media: 'video' })).state).toBe('approved');
    expect(decide([images], post({ media: 'video' })).state).toBe('rejected');
    expect(decide([images], post({ media: 'image' })).state).toBe('approved');
    expect(decide([videos], post({ media: 'image' })).state).toBe('rejected');

    for (const kind of ['repost', 'reply', 'sensitive'] as const) {
      const rule = { id: kind, kind, action: 'hold' } as Rule;
      expect(decide([rule], post({ [kind]: true })).state).toBe('pending');
      expect(decide([rule], post()).state).toBe('approved');
    }
    const length: Rule = { id: 'l', kind: 'length', action: 'hold', min: 20 };
    expect(decide([length], post({ content: '  short  ' })).state).toBe('pending');
    expect(decide([length], post({ content: '😀'.repeat(19) })).state).toBe('pending'); // characters, not UTF-16 units
    expect(decide([length], post({ content: '😀'.repeat(20) })).state).toBe('approved');
  });

  it('the first rule that matches wins, whatever the later ones say', () => {
    const allow: Rule = { id: 'vip', kind: 'author', action: 'approve', network: null, usernames: ['ana@m.example'] };
    const block: Rule = { id: 'kw', kind: 'keyword', action: 'reject', words: ['harbour'], match: 'any' };
    expect(decide([allow, block], post()).by).toBe('rule:vip');
    expect(decide([block, allow], post()).by).toBe('rule:kw');
    expect(compileRules([block, allow]).match(post({ content: 'nothing', username: 'x' }))).toBeNull();
  });

  it('reads stored HTML as text: tags are word breaks, entities decoded', () => {
    expect(ruleText('<p>free<br>money &amp; more&#33;</p>')).toBe(' free money & more! ');
    // every character reference of HTML, so accents folded from them match too
    expect(ruleText('Caf&eacute; &hearts; na&#xEF;ve')).toBe('Café ♥ naïve');
    const cafe: Rule = { id: 'c', kind: 'keyword', action: 'reject', words: ['cafe'], match: 'any' };
    expect(decide([cafe], post({ content: ruleText('<b>Caf&eacute;</b> open') })).state).toBe('rejected');
    const rule: Rule = { id: 'k', kind: 'keyword', action: 'reject', words: ['free money'], match: 'any' };
    expect(decide([rule], post({ content: ruleText('<p>free<br>money</p>') })).state).toBe('rejected');
  });

  it('keywords match exactly as whole folded words, whatever the text (plain ASCII takes a shorter path)', () => {
    // the reference: fold, split into Unicode letter/number runs, a phrase is consecutive words
    const wordsOf = (text: string) => foldText(text).match(/[\p{L}\p{N}]+/gu) ?? [];
    const holds = (text: string, phrase: string) => {
      const p = wordsOf(phrase);
      return p.length > 0 && ` ${wordsOf(text).join(' ')} `.includes(` ${p.join(' ')} `);
    };
    const vocabulary = ['free', 'money', 'Café', 'cafe', 'NAÏVE', 'ｆｕｌｌ', 'x1', 'ß'];
    const piece = fc.oneof(
      fc.constantFrom(...vocabulary, ' ', ', ', '\n', '-', 'é', '\u0301'),
      fc.string({ maxLength: 3 }),
    );
    const text = fc.array(piece, { maxLength: 12 }).map((xs) => xs.join(''));
    const phrase = fc.array(fc.constantFrom(...vocabulary), { minLength: 1, maxLength: 2 }).map((xs) => xs.join(' '));
    fc.assert(
      fc.property(text, fc.array(phrase, { minLength: 1, maxLength: 3 }), fc.boolean(), (content, words, all) => {
        const rule: Rule = { id: 'k', kind: 'keyword', action: 'reject', words, match: all ? 'all' : 'any' };
        const expected = all
          ? words.every((w) => holds(`${content}\n${'Ana'}`, w))
          : words.some((w) => holds(`${content}\n${'Ana'}`, w));
        expect(compileRules([rule]).match(post({ content, authorName: 'Ana' })) !== null).toBe(expected);
      }),
      { numRuns: 2000 },
    );
  });
});
