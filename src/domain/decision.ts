// What an automatic moderation decision found, so that it explains itself:
// the rule, the label and score a detector gave, the threshold the rule held
// the score against, and the model (with its version) that measured it. Kept
// with the post (`decision_detail`) beside the one-line reason people read.
import type { PostState } from './lists.js';

export interface DecisionDetail {
  /** the rule's id (`r3`) */
  rule: string;
  /** the rule's kind (`image`, `language`, `sentiment`, `duplicate`, `burst`, …) */
  kind: string;
  /** what was found: a class (`porn`), a language (`pt`), a duplicate's post id; null when the kind has none */
  label: string | null;
  /** the measured value: a classifier's 0–1 score, a count; null when the kind measures nothing */
  score: number | null;
  /** the rule's threshold the score was held against; null when the rule has none */
  threshold: number | null;
  /** the detector and its version (`nsfwjs mobilenet_v2 4.4.0`, `eld 2.1.0`); null for plain rules */
  model: string | null;
}

const VERB: Record<PostState, string> = { pending: 'held', rejected: 'rejected', approved: 'approved' };

/** A two-decimal score: 0.9134 → `0.91`; counts stay whole. */
function shown(n: number): string {
  return Number.isInteger(n) ? String(n) : n.toFixed(2);
}

/**
 * How a kind's score stands against its threshold when the rule matches: a
 * classifier's score or a count at or over it; sentiment under its `below`;
 * a distance (near-duplicate text) within it. From the rule's own comparison,
 * not from the numbers (a duplicate at distance 0 of 3 is "≤ 3", not "< 3").
 */
const RELATION: Partial<Record<string, '≥' | '<' | '≤'>> = { sentiment: '<', duplicate: '≤', similar_image: '≤' };
const relationOf = (kind: string) => RELATION[kind] ?? '≥';

/**
 * The one line a moderator reads: `held: image 0.91 'porn' ≥ 0.80 — nsfwjs mobilenet_v2 4.4.0`.
 * Parts the detail lacks are left out (`held: language 'pt' — eld 2.1.0`); a score under its
 * threshold reads `<` (`held: sentiment -0.84 'negative' < -0.50 — sentiment (AFINN-165) 5.0.2`).
 */
export function explainDecision(state: PostState, d: DecisionDetail): string {
  let line = `${VERB[state]}: ${d.kind}`;
  if (d.score !== null) line += ` ${shown(d.score)}`;
  if (d.label !== null) line += ` '${d.label}'`;
  if (d.score !== null && d.threshold !== null) line += ` ${relationOf(d.kind)} ${shown(d.threshold)}`;
  if (d.model !== null) line += ` — ${d.model}`;
  return line;
}

/** A stored `decision_detail` (JSON or null) → the detail, or null when absent or unreadable. */
export function parseDecisionDetail(json: string | null): DecisionDetail | null {
  if (json === null) return null;
  try {
    const d = JSON.parse(json) as DecisionDetail | null;
    return d !== null && typeof d === 'object' && typeof d.rule === 'string' ? d : null;
  } catch {
    return null;
  }
}
