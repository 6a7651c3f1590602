// What the text signals of moderation (issue 32) read of a post, and the
// names they go by: the language a post is written in (eld) and how negative
// its words are (sentiment: the AFINN-165 lexicon). Light to load on purpose:
// schemas, the console and the CLI read these lists and names, while the
// detectors themselves (src/domain/language.ts, src/domain/sentiment.ts,
// with their tables of n-grams and words) load only where posts are judged.

/** eld's version: the model named in every language decision (a test checks it against the installed package). */
export const ELD_VERSION = '2.1.0';
export const LANGUAGE_MODEL = `eld ${ELD_VERSION}`;
/** sentiment's version (a test checks it against the installed package). */
export const SENTIMENT_VERSION = '5.0.2';
export const SENTIMENT_MODEL = `sentiment (AFINN-165) ${SENTIMENT_VERSION}`;

/** The languages eld tells apart (ISO 639-1): what a `language` rule may list. */
export const DETECTED_LANGUAGES = [
  'am',
  'ar',
  'az',
  'be',
  'bg',
  'bn',
  'ca',
  'cs',
  'da',
  'de',
  'el',
  'en',
  'es',
  'et',
  'eu',
  'fa',
  'fi',
  'fr',
  'gu',
  'he',
  'hi',
  'hr',
  'hu',
  'hy',
  'is',
  'it',
  'ja',
  'ka',
  'kn',
  'ko',
  'ku',
  'lo',
  'lt',
  'lv',
  'ml',
  'mr',
  'ms',
  'nl',
  'no',
  'or',
  'pa',
  'pl',
  'pt',
  'ro',
  'ru',
  'sk',
  'sl',
  'sq',
  'sr',
  'sv',
  'ta',
  'te',
  'th',
  'tl',
  'tr',
  'uk',
  'ur',
  'vi',
  'yo',
  'zh',
] as const;
export type DetectedLanguage = (typeof DETECTED_LANGUAGES)[number];

/** The languages the sentiment lexicon reads: AFINN-165 is English only (plus emoji). */
export const SENTIMENT_LANGUAGES = ['en'] as const;

/** Fewer letters than this, once links, handles, hashtags and emoji are gone: too little to tell a language. */
export const LANGUAGE_MIN_LETTERS = 10;

/**
 * How strongly a sum of AFINN-165 valences (each word −5 … +5) is held to
 * be meant, on −1 … +1: `sum / √(sum² + 15)`, the normalisation VADER uses.
 * A single "stupid" (−2) is −0.46, "hate … idiot" (−3, −3) −0.84; one
 * more hostile word always moves it further, but never past −1, whatever
 * the length of the post.
 */
export function normalizedSentiment(sum: number): number {
  return sum === 0 ? 0 : sum / Math.sqrt(sum * sum + 15);
}

const URL = /\b(?:https?:\/\/|www\.)\S+/giu;
// @ana, @ana@m.example, @ana.bsky.social; #hashtags (a word after #, in any script)
const HANDLE = /(?<![\p{L}\p{N}_])@[\p{L}\p{N}_.-]+(?:@[\p{L}\p{N}_.-]+)?/gu;
const HASHTAG = /(?<![\p{L}\p{N}_&])#[\p{L}\p{N}_]+/gu;
// emoji and their joiners, variation selectors and skin tones
const EMOJI = /\p{Extended_Pictographic}|\p{Emoji_Modifier}|\u200d|\ufe0f|\u20e3/gu;
const LETTER = /\p{L}/gu;

/**
 * A post's plain text (src/domain/rules.ts ruleText) as a language detector
 * should read it: without links, @handles, #hashtags and emoji, which are
 * written the same in every language and only blur it; spaces collapsed.
 */
export function languageText(text: string): string {
  return text
    .replace(URL, ' ')
    .replace(HANDLE, ' ')
    .replace(HASHTAG, ' ')
    .replace(EMOJI, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/** Whether a text (as languageText gives it) has enough letters to tell its language. */
export function enoughLetters(text: string): boolean {
  LETTER.lastIndex = 0;
  let n = 0;
  while (LETTER.exec(text) !== null) if (++n >= LANGUAGE_MIN_LETTERS) return true;
  return false;
}
