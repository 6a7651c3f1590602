// Where a post's rights state changes (every step of src/rights/service.ts
// that moves it): the state and its hold written, then the wall's `rights`
// rules asked about the new state. The first one listing it decides the
// post's moderation state, as a rule at arrival would (decided_by
// `rule:<id>`); the wall's other rules are not run again. Call inside the
// transaction that writes post_rights and the evidence.
import type { Kysely } from 'kysely';
import type { RightsState } from '../domain/rights.js';
import { rightsRuleDecision, type Rule, type RuleDecision } from '../domain/rules.js';
import { decideByRightsRule, setRightsState, wallOfRightsChange } from '../store/rights.js';
import type { Database } from '../store/schema.js';

/**
 * Sets the post's rights state, then what the wall's first `rights` rule
 * listing it decides — for a pending or approved post whose state differs.
 * Returns that decision when it changed the post, else null.
 */
export async function applyRightsState(
  trx: Kysely<Database>,
  post: { id: number; wallId: number },
  state: RightsState,
  now: number,
): Promise<RuleDecision | null> {
  const wall = await wallOfRightsChange(trx, post.wallId);
  await setRightsState(trx, post, state, wall.rights_required);
  const decision = rightsRuleDecision(JSON.parse(wall.rules) as Rule[], state);
  if (decision === null) return null;
  return (await decideByRightsRule(trx, post.id, decision, now)) ? decision : null;
}
