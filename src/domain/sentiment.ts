// How negative a post's words are, by the `sentiment` package: each word of
// the AFINN-165 lexicon (English, about 3,400 words, −5 … +5) and of its
// emoji table adds its valence; a word after a negator ("not", "don't", …)
// counts reversed. The sum is normalised to −1 … +1
// (src/domain/text-signals.ts normalizedSentiment). English only; sarcasm
// and most irony read as what they literally say. Loaded on first use, like
// the language detector.
import { normalizedSentiment } from './text-signals.js';

/** A loaded scorer: a plain text → −1 (hostile) … 0 (neutral, or no word of the lexicon) … +1 (warm). */
export type ScoreSentiment = (text: string) => number;

let loading: Promise<ScoreSentiment> | undefined;

export function loadSentiment(): Promise<ScoreSentiment> {
  return (loading ??= import('sentiment').then(({ default: Sentiment }) => {
    const analyzer = new Sentiment();
    return (text: string) => normalizedSentiment(analyzer.analyze(text).score);
  }));
}
