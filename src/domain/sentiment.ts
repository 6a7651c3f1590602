// How negative a post's words are, by the `sentiment` package: each word of
// the AFINN-165 lexicon (English, about 3,400 words, −5 … +5) and of its
// emoji table adds its valence; a word after a negator ("not", "don't", …)
// counts reversed. The sum is normalised to −1 … +1
// (src/domain/text-signals.ts normalizedSentiment). English only; sarcasm
// and most irony read as what they literally say.
import Sentiment from 'sentiment';
import { normalizedSentiment } from './text-signals.js';

const analyzer = new Sentiment();

/** The normalised sentiment of a plain text: −1 (hostile) … 0 (neutral, or no word of the lexicon) … +1 (warm). */
export function sentimentScore(text: string): number {
  return normalizedSentiment(analyzer.analyze(text).score);
}
