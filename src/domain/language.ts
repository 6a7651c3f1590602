// The language of a post's text, by eld (Efficient Language Detector) with
// its smallest n-gram table (`extrasmall`: 60 languages; about 0.2 s and
// 35 MB to load, so only the modules that judge posts import this one — the
// parse workers and, on first use, the management services; see
// src/domain/text-signals.ts). Pure: the table is part of the module.
import { eld } from 'eld/extrasmall';
import { enoughLetters, languageText } from './text-signals.js';

/**
 * The ISO 639-1 code of the language `text` (plain text, not HTML) is
 * written in, or null when it cannot be told: too few letters once links,
 * handles, hashtags and emoji are gone, or eld not sure of its answer (its
 * `isReliable`: the best score well above the language's usual and clear of
 * the second's).
 */
export function detectLanguage(text: string): string | null {
  const plain = languageText(text);
  if (!enoughLetters(plain)) return null;
  const result = eld.detect(plain);
  if (result.language === '' || !result.isReliable()) return null;
  return result.language;
}
