// How a new post arrives on its wall: judged by the wall's rules (the first
// that matches decides), else placed by the moderation mode. The parse
// workers judge each post beside parsing and sanitizing it, so the rules cost
// the serving thread nothing; the serving thread only reads the decision.
import {
  compileRules,
  ruleSubjectOf,
  ruleText,
  type CompiledRules,
  type Rule,
  type TextDetectors,
} from '../domain/rules.js';
import type { ModerationMode } from '../domain/lists.js';
import { arrivalByMode, type Arrival } from '../domain/arrival.js';
import type { IngestedPost } from '../store/ingest.js';
import { hasItemPictures, hasPictureRules } from '../domain/image-rules.js';

// A worker parses many pages of few walls: each wall's list is compiled once, not per page.
const compiled = new Map<string, CompiledRules>();
const COMPILED_KEPT = 64;

function compiledFor(rulesJson: string, detectors: TextDetectors): CompiledRules {
  let rules = compiled.get(rulesJson);
  if (rules === undefined) {
    if (compiled.size >= COMPILED_KEPT) compiled.delete(compiled.keys().next().value!);
    rules = compileRules(JSON.parse(rulesJson) as Rule[], detectors);
    compiled.set(rulesJson, rules);
  }
  return rules;
}

/**
 * The arrival of each new post, on the serving thread: the decision a rule
 * made in the parse worker (`judgeRows`), else the moderation mode's.
 */
export function arrivalOf(mode: ModerationMode): (post: IngestedPost) => Arrival {
  const byMode = arrivalByMode(mode);
  return (p) => p.arrival ?? byMode;
}

/**
 * The language of each row's text, set on the row as `lang` (stored with it;
 * null when it cannot be told). The `detectors` are the parse worker's.
 */
export function detectRowLanguages(rows: IngestedPost[], detectors: TextDetectors): void {
  for (const row of rows) row.lang = detectors.language(ruleText(row.content));
}

/**
 * The decision a rule made about each row, set on the row as `arrival` (rows
 * no rule matched carry none: their mode places them, on the serving thread).
 * A row's `lang`, when detected already, is what a `language` rule reads.
 */
export function judgeRows(rows: IngestedPost[], rulesJson: string, detectors: TextDetectors): void {
  if (rulesJson === '[]') return;
  const rules = compiledFor(rulesJson, detectors);
  // picture rules make a post with pictures wait for the image check (src/media/image-check.ts)
  const pictures = hasPictureRules(rulesJson);
  for (const row of rows) {
    const subject = ruleSubjectOf(row);
    if (row.lang !== undefined) subject.lang = row.lang;
    if (pictures) subject.pictured = hasItemPictures(row);
    const decision = rules.judge(subject);
    if (decision !== null) row.arrival = decision;
  }
}
