// The language of a post written through an API (src/domain/language.ts):
// stored with its content like ingestion stores it. The detector's table is
// loaded on the first post written, not when the process starts.
import { loadLanguageDetector } from '../domain/language.js';
import { ruleText } from '../domain/rules.js';

/** The language of a post's (sanitized) HTML content: an ISO 639-1 code, or null when it cannot be told. */
export async function languageOfContent(html: string): Promise<string | null> {
  return (await loadLanguageDetector())(ruleText(html));
}
