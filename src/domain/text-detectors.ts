// The text detectors the moderation rules are compiled with where posts are
// judged (src/domain/rules.ts TextDetectors): eld for the language, AFINN for
// the sentiment. Their tables load on the first call (about 0.2 s), not
// with this module: the parse workers load them with their first task, the
// management services when a post is written or a rule list applied.
import type { TextDetectors } from './rules.js';
import { loadLanguageDetector } from './language.js';
import { loadSentiment } from './sentiment.js';

let loading: Promise<TextDetectors> | undefined;

export function loadTextDetectors(): Promise<TextDetectors> {
  return (loading ??= Promise.all([loadLanguageDetector(), loadSentiment()]).then(([language, sentiment]) => ({
    language,
    sentiment,
  })));
}
