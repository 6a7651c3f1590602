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
import { HistoryJudge, isHistoryRule, textHash } from '../domain/spam.js';
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
  // the `duplicate` rule's SimHash, made here beside the rest of the row; only for a wall
  // with such a rule (posts stored without it are hashed when the rule reads them)
  if (rulesJson.includes('"duplicate"') && hasDuplicateRule(rulesJson))
    for (const row of rows) row.text_hash = textHash(row.content);
  for (const row of rows) {
    const subject = ruleSubjectOf(row);
    if (row.lang !== undefined) subject.lang = row.lang;
    if (pictures) subject.pictured = hasItemPictures(row);
    const first = rules.first(subject);
    if (first === null) continue;
    row.arrival = first.decision;
    // rules before it that read the wall's recent posts still come first: the write path asks them
    row.arrivalRule = first.index;
  }
}

const hasDuplicateRule = (rulesJson: string) => (JSON.parse(rulesJson) as Rule[]).some((r) => r.kind === 'duplicate');

/**
 * The wall's rules that read its recent posts (`duplicate`, `burst`), for
 * the write path (src/store/ingest.ts upsertPosts): a fresh judge per
 * batch, or undefined when the wall has none.
 */
export function historyOf(rulesJson: string): (() => HistoryJudge<Rule>) | undefined {
  if (rulesJson === '[]') return undefined;
  const rules = JSON.parse(rulesJson) as Rule[];
  if (!rules.some(isHistoryRule)) return undefined;
  return () => new HistoryJudge(rules);
}
