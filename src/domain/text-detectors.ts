// The text detectors the moderation rules are compiled with where posts are
// judged (src/domain/rules.ts TextDetectors): eld for the language, AFINN for
// the sentiment. Importing this module loads both tables (about 0.2 s), so
// it is imported by the parse worker, and by the management services only
// when a post is written or a rule list is applied (a dynamic import).
import type { TextDetectors } from './rules.js';
import { detectLanguage } from './language.js';
import { sentimentScore } from './sentiment.js';

export const TEXT_DETECTORS: TextDetectors = { language: detectLanguage, sentiment: sentimentScore };
