// The `provider` rule of a wall (issue 32): a post whose labels, scored by a
// moderation provider the operator configured (src/moderation/), reach the
// rule's threshold is held (or rejected, or approved). Pure: the provider's
// answer is asked in the background (src/moderation/provider-check.ts) and
// handed in as a fact, like the image check's scores.
//
// A post a provider rule reaches cannot be judged when it arrives: it waits,
// pending, for the provider (PROVIDER_CHECK_WAIT). A provider that gives no
// answer (timeout, outage, circuit open, over budget, a bad answer, not
// configured) leaves the post held for a human with the reason: only a real
// answer can let a post through.
import type { Arrival } from './arrival.js';
import { explainDecision, type DecisionDetail } from './decision.js';
import type { PostState } from './lists.js';

/** The protocols a provider may speak (src/moderation/openai-provider.ts, http-provider.ts). */
export const PROVIDER_PROTOCOLS = ['openai', 'http'] as const;
export type ProviderProtocol = (typeof PROVIDER_PROTOCOLS)[number];

/** A configured provider's name: what a rule names it by (also a metrics label). */
export const PROVIDER_NAME = /^[a-z0-9][a-z0-9_-]{0,39}$/;

export const DEFAULT_PROVIDER_THRESHOLD = 0.5;

export interface ProviderRuleFields {
  kind: 'provider';
  /** the configured provider's name */
  provider: string;
  /** the labels that count (as the provider names them); null: every label it gives */
  labels: string[] | null;
  /** a counted label's score (0–1) at or over it matches */
  threshold: number;
}

/** What a provider said of a post: its labels and the model that gave them, or why it said nothing. */
export type ProviderAnswer =
  | { ok: true; model: string; protocol: string; labels: { label: string; score: number }[] }
  | { ok: false; why: string; detail: string };

/** The pending arrival of a post whose wall's provider rule must hear its provider first. */
export const PROVIDER_CHECK_WAIT: Arrival = Object.freeze({
  state: 'pending',
  by: 'check:provider',
  reason: 'waiting for the moderation provider',
});

/** A post waits for its provider while `decided_by` is this. */
export const PROVIDER_CHECK_BY = PROVIDER_CHECK_WAIT.by!;

/** Whether a stored rule list (JSON) has a provider rule: cheaper than parsing it. */
const PROVIDER_KIND = /"kind"\s*:\s*"provider"/;
export const hasProviderRules = (rulesJson: string): boolean => PROVIDER_KIND.test(rulesJson);

/** Four decimals are plenty for a probability, and keep the stored detail short. */
const round = (n: number) => Math.round(n * 10_000) / 10_000;

/**
 * A provider rule's arrival for a post, given the answers known of it:
 * the wait while its provider has not been asked (`answers` absent, or
 * without the rule's provider); a hold for a human when the provider gave
 * no answer; the rule's action with what it found (the highest counted
 * label at or over the threshold); or null (the answer lets it pass).
 */
export function providerArrival(
  rule: ProviderRuleFields & { id: string },
  state: PostState,
  answers: Readonly<Record<string, ProviderAnswer>> | undefined,
): Arrival | null {
  const answer = answers?.[rule.provider];
  if (answer === undefined) return PROVIDER_CHECK_WAIT;
  if (!answer.ok) {
    const detail: DecisionDetail = {
      rule: rule.id,
      kind: 'provider',
      label: answer.why,
      score: null,
      threshold: null,
      model: rule.provider,
    };
    return {
      state: 'pending',
      by: `rule:${rule.id}`,
      reason: `held: provider '${rule.provider}' unanswered (${answer.why}: ${answer.detail})`,
      detail,
    };
  }
  const counted = rule.labels === null ? null : new Set(rule.labels);
  let best: { label: string; score: number } | null = null;
  for (const l of answer.labels) {
    if (counted !== null && !counted.has(l.label)) continue;
    if (l.score >= rule.threshold && (best === null || l.score > best.score)) best = l;
  }
  if (best === null) return null;
  const detail: DecisionDetail = {
    rule: rule.id,
    kind: 'provider',
    label: best.label,
    score: round(best.score),
    threshold: rule.threshold,
    model: `${answer.model} via ${answer.protocol}`,
  };
  return { state, by: `rule:${rule.id}`, reason: explainDecision(state, detail), detail };
}
