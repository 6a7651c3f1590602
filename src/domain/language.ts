// The language of a post's text, by eld (Efficient Language Detector) with
// its smallest n-gram table (`extrasmall`: 60 languages; about 0.2 s and
// 33 MB of heap to load). Loaded on first use, by a dynamic import: the
// schemas, the CLI and every process that never judges a post never load
// it, and a parse worker loads it once, with its first task.
import { enoughLetters, languageText } from './text-signals.js';

/** A loaded detector: a plain text → its ISO 639-1 code, or null. */
export type DetectLanguage = (text: string) => string | null;

let loading: Promise<DetectLanguage> | undefined;

/** How much of a long text is read (characters): bench/language-results.md measures accuracy and cost with it. */
export const LANGUAGE_SAMPLE = 400;

/**
 * The detector, loaded once. It answers the language `text` (plain text, not
 * HTML) is written in, or null when it cannot be told: too few letters once
 * links, handles, hashtags and emoji are gone, or eld not sure of its answer
 * (its `isReliable`: the best score well above that language's usual, and
 * clear of the second's).
 */
export function loadLanguageDetector(): Promise<DetectLanguage> {
  return (loading ??= import('eld/extrasmall').then(({ eld }) => (text: string) => {
    // the first few sentences tell the language as well as a whole article, at a fraction of the cost
    const plain = languageText(text.length > 2 * LANGUAGE_SAMPLE ? text.slice(0, 2 * LANGUAGE_SAMPLE) : text);
    if (!enoughLetters(plain)) return null;
    const result = eld.detect(plain.length > LANGUAGE_SAMPLE ? plain.slice(0, LANGUAGE_SAMPLE) : plain);
    if (result.language === '' || !result.isReliable()) return null;
    return result.language;
  }));
}
