// The text signals of moderation on their own: the language of a post (eld,
// fed plain text without links, handles, hashtags and emoji), its sentiment
// (AFINN-165, normalised), and the `language` and `sentiment` rules with the
// detail each decision carries.
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { loadLanguageDetector } from '../../src/domain/language.js';
import { compileRules, completeRules, type Rule, type RuleSubject } from '../../src/domain/rules.js';
import { loadSentiment } from '../../src/domain/sentiment.js';
import { loadTextDetectors } from '../../src/domain/text-detectors.js';
import {
  DETECTED_LANGUAGES,
  ELD_VERSION,
  enoughLetters,
  languageText,
  normalizedSentiment,
  SENTIMENT_VERSION,
} from '../../src/domain/text-signals.js';

const detectLanguage = await loadLanguageDetector();
const sentimentScore = await loadSentiment();
const TEXT_DETECTORS = await loadTextDetectors();

const version = (pkg: string) =>
  (
    JSON.parse(readFileSync(new URL(`../../node_modules/${pkg}/package.json`, import.meta.url), 'utf8')) as {
      version: string;
    }
  ).version;

const post = (content: string, over: Partial<RuleSubject> = {}): RuleSubject => ({
  content,
  authorName: 'Ana Lima',
  username: 'ana@m.example',
  network: 'Mastodon',
  media: 'text',
  ...over,
});

const EN = 'The band played until midnight and the whole crowd sang along with every song.';
const PT = 'A banda tocou até a meia-noite e toda a multidão cantou junto com cada música.';
const DE = 'Die Band spielte bis Mitternacht und die ganze Menge sang bei jedem Lied mit.';

describe('the language of a post', () => {
  it('names the models it was measured with: the installed versions', () => {
    expect(version('eld')).toBe(ELD_VERSION);
    expect(version('sentiment')).toBe(SENTIMENT_VERSION);
  });

  it('tells English, Portuguese and German apart', () => {
    expect(detectLanguage(EN)).toBe('en');
    expect(detectLanguage(PT)).toBe('pt');
    expect(detectLanguage(DE)).toBe('de');
  });

  it('reads the words, not the links, handles, hashtags and emoji around them', () => {
    expect(languageText('Olá @ana@m.example! https://x.example/a?b=c #festival2026 🎉🎸 www.y.example')).toBe('Olá !');
    // an English-looking wrapper of handles, tags and a link does not make a Portuguese post English
    const wrapped = `@the_organizers @festival_official ${PT} #livemusic #summerfestival https://tickets.example/buy-now`;
    expect(detectLanguage(wrapped)).toBe('pt');
  });

  it('too little text, or only links, handles and emoji: unknown (null)', () => {
    expect(detectLanguage('')).toBeNull();
    expect(detectLanguage('ok!')).toBeNull();
    expect(detectLanguage('@ana https://x.example/very/long/english/words/path #greatnews 🎉🎉')).toBeNull();
    expect(enoughLetters('abcdefghi')).toBe(false);
    expect(enoughLetters('abcdefghij')).toBe(true);
  });

  it('never throws, and answers a language eld knows or null, for any text', () => {
    const known = new Set<string>(DETECTED_LANGUAGES);
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 300 }), (text) => {
        const lang = detectLanguage(text);
        expect(lang === null || known.has(lang)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
});

describe('the sentiment of a post', () => {
  it('is the AFINN-165 sum normalised to −1 … +1: s / √(s² + 15)', () => {
    expect(sentimentScore('A quiet morning at the harbour')).toBe(0);
    expect(sentimentScore('Cats are stupid.')).toBeCloseTo(-2 / Math.sqrt(19), 10);
    expect(sentimentScore('I hate you, idiot')).toBeCloseTo(-6 / Math.sqrt(51), 10);
    expect(sentimentScore('What a lovely, wonderful evening')).toBeGreaterThan(0.5);
    // a negator reverses the word after it
    expect(sentimentScore('This is not good')).toBeLessThan(0);
  });

  it('stays within −1 … +1, keeps the sign of the sum, and grows with it', () => {
    fc.assert(
      fc.property(fc.integer({ min: -10_000, max: 10_000 }), fc.integer({ min: 1, max: 100 }), (s, d) => {
        const n = normalizedSentiment(s);
        expect(Math.abs(n)).toBeLessThan(1);
        expect(Math.sign(n)).toBe(Math.sign(s));
        expect(normalizedSentiment(s + d)).toBeGreaterThan(n);
      }),
    );
  });
});

describe('language and sentiment rules', () => {
  const only = (rule: Rule) => compileRules([rule], TEXT_DETECTORS);
  const allowEn = completeRules([
    { id: 'lang', kind: 'language', action: 'hold', languages: ['en'], mode: 'allow' },
  ])[0]!;

  it('a list with them needs the detectors; one without them does not', () => {
    expect(() => compileRules([allowEn])).toThrow(/text detectors/);
    expect(() => compileRules([{ id: 'l', kind: 'length', action: 'hold', min: 3 }])).not.toThrow();
  });

  it('allow: posts in a language not listed are held, each with its language, and explained', () => {
    expect(allowEn).toMatchObject({ unknown: 'pass' });
    expect(only(allowEn).judge(post(EN))).toBeNull();
    expect(only(allowEn).judge(post(PT))).toEqual({
      state: 'pending',
      by: 'rule:lang',
      reason: "held: language 'pt' — eld 2.1.0",
      detail: { rule: 'lang', kind: 'language', label: 'pt', score: null, threshold: null, model: 'eld 2.1.0' },
    });
    expect(only(allowEn).judge(post(DE))?.detail?.label).toBe('de');
  });

  it('block: posts in a listed language match; the action decides (reject here)', () => {
    const block: Rule = {
      id: 'b',
      kind: 'language',
      action: 'reject',
      languages: ['de', 'pt'],
      mode: 'block',
      unknown: 'pass',
    };
    expect(only(block).judge(post(DE))).toMatchObject({
      state: 'rejected',
      reason: "rejected: language 'de' — eld 2.1.0",
    });
    expect(only(block).judge(post(EN))).toBeNull();
  });

  it('a language that cannot be told passes, unless the rule says unknown: match', () => {
    expect(only(allowEn).judge(post('ok 👍'))).toBeNull();
    const strict = { ...allowEn, unknown: 'match' } as Rule;
    expect(only(strict).judge(post('ok 👍'))).toMatchObject({
      reason: "held: language 'unknown' — eld 2.1.0",
      detail: { label: 'unknown' },
    });
  });

  it('a stored language is used as it is; a post without one is detected on the fly', () => {
    expect(only(allowEn).judge(post(EN, { lang: 'pt' }))?.detail?.label).toBe('pt');
    expect(only(allowEn).judge(post(PT, { lang: 'en' }))).toBeNull();
    expect(only(allowEn).judge(post(EN, { lang: null }))).toBeNull(); // known to be unknown: passes
  });

  it('sentiment: posts below the threshold are held with their score, the threshold and the model', () => {
    const rule: Rule = { id: 's', kind: 'sentiment', action: 'hold', below: -0.5 };
    const hostile = only(rule).judge(post('I hate this band, the singer is an idiot'));
    expect(hostile).toEqual({
      state: 'pending',
      by: 'rule:s',
      reason: "held: sentiment -0.84 'negative' < -0.50 — sentiment (AFINN-165) 5.0.2",
      detail: {
        rule: 's',
        kind: 'sentiment',
        label: 'negative',
        score: -0.84,
        threshold: -0.5,
        model: 'sentiment (AFINN-165) 5.0.2',
      },
    });
    expect(only(rule).judge(post('Cats are stupid.'))).toBeNull(); // −0.46: not below −0.5
    expect(only(rule).judge(post(EN))).toBeNull();
    // the lexicon is English: a post detected in another language is not read
    expect(only(rule).judge(post('Eu odeio isto, hate hate hate, que idiota horrível', { lang: 'pt' }))).toBeNull();
    expect(only(rule).judge(post('hate hate, idiot', { lang: null }))).not.toBeNull(); // unknown: read
  });

  it('comes after other rules in order like any rule: the first that matches decides', () => {
    const rules: Rule[] = [{ id: 'k', kind: 'keyword', action: 'approve', words: ['banda'], match: 'any' }, allowEn];
    expect(compileRules(rules, TEXT_DETECTORS).judge(post(PT))).toMatchObject({ state: 'approved', by: 'rule:k' });
  });
});
