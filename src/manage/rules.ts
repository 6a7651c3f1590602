// A wall's moderation rules: read, replace (or try without saving: a dry
// run reports what they would change in the stored posts), and apply to the
// stored posts on demand. Ingestion applies them to new posts
// (src/ingest/runtime.ts). Each write is audited; an apply announces the wall.
import type { Kysely } from 'kysely';
import { compileRules, completeRules, ruleDecision, ruleSubjectOf, type Rule } from '../domain/rules.js';
import type { Database } from '../store/schema.js';
import type { ApplyInput, ApplyRecord, RuleCount, RulesInput, RulesRecord } from '../schemas/rules.js';
import { cleanWrite, MODERATION_RULES } from '../domain/writes.js';
import { stored } from '../domain/errors.js';
import { audited, type Op } from './op.js';
import { requireWall } from './walls.js';
import { postsToJudge } from '../store/rules.js';
import { updatePostsOfWall } from '../store/posts.js';
import { updateWallRow } from '../store/walls.js';

/** The stored rules of a wall row ('[]' when none). */
export function storedRules(json: string): Rule[] {
  return JSON.parse(json) as Rule[];
}

export async function getRules(db: Kysely<Database>, wallId: number): Promise<RulesRecord> {
  const wall = await requireWall(db, wallId);
  return { rules: storedRules(wall.rules) };
}

interface Plan {
  counts: RuleCount[];
  checked: number;
  /** per rule id: the posts whose state changes */
  changes: Map<string, number[]>;
}

const BATCH = 1000;

/** What `rules` decide for the wall's pending (and, with `includeApproved`, approved) posts. */
async function plan(db: Kysely<Database>, wallId: number, rules: Rule[], includeApproved: boolean): Promise<Plan> {
  const compiled = compileRules(rules);
  const byId = new Map(rules.map((r) => [r.id, r]));
  const counts = new Map(rules.map((r) => [r.id, { ruleId: r.id, matched: 0, changed: 0 }]));
  const changes = new Map<string, number[]>();
  let checked = 0;
  let after = 0;
  for (;;) {
    const rows = await postsToJudge(db, wallId, includeApproved ? ['pending', 'approved'] : ['pending'], after, BATCH);
    if (rows.length === 0) break;
    for (const r of rows) {
      checked++;
      const rule = compiled.match(ruleSubjectOf(r));
      if (!rule) continue;
      const count = counts.get(rule.id)!;
      count.matched++;
      if (ruleDecision(byId.get(rule.id)!).state !== r.state) {
        count.changed++;
        const list = changes.get(rule.id) ?? [];
        list.push(r.id);
        changes.set(rule.id, list);
      }
    }
    after = rows[rows.length - 1]!.id;
  }
  return { counts: [...counts.values()], checked, changes };
}

/** Replaces the wall's rules; with `dryRun`, saves nothing and reports what they would change in pending posts. */
export async function putRules(op: Op, wallId: number, given: RulesInput, dryRun: boolean): Promise<RulesRecord> {
  const rules = completeRules(stored(cleanWrite(given, MODERATION_RULES)).rules);
  if (dryRun) {
    await requireWall(op.db, wallId);
    const { counts } = await plan(op.db, wallId, rules, false);
    return { rules, dryRun: true, counts };
  }
  return audited(op, async (tx) => {
    const wall = await requireWall(tx.trx, wallId);
    await updateWallRow(tx.trx, wallId, { rules: JSON.stringify(rules) });
    tx.audit({
      action: 'wall.rules.set',
      targetType: 'wall',
      targetId: wallId,
      before: { rules: storedRules(wall.rules) },
      after: { rules },
    });
    tx.wallChanged(wallId);
    return { rules };
  });
}

/** Runs the wall's rules over its pending posts (and approved ones when asked); a rule's decision is recorded as `rule:<id>`. */
export async function applyRules(op: Op, wallId: number, input: ApplyInput): Promise<ApplyRecord> {
  return audited(op, async (tx) => {
    const wall = await requireWall(tx.trx, wallId);
    const rules = storedRules(wall.rules);
    const { counts, checked, changes } = await plan(tx.trx, wallId, rules, input.includeApproved === true);
    for (const rule of rules) {
      const ids = changes.get(rule.id) ?? [];
      const decision = ruleDecision(rule);
      for (let i = 0; i < ids.length; i += 500) {
        await updatePostsOfWall(tx.trx, wallId, ids.slice(i, i + 500), {
          state: decision.state,
          decided_by: decision.by,
          decided_at: op.now,
          decision_reason: decision.reason,
          decision_detail: decision.detail ? JSON.stringify(decision.detail) : null,
        });
      }
    }
    tx.audit({
      action: 'wall.rules.apply',
      targetType: 'wall',
      targetId: wallId,
      after: { counts },
      details: { includeApproved: input.includeApproved === true, checked },
    });
    if (counts.some((c) => c.changed > 0)) tx.wallChanged(wallId);
    return { counts, checked };
  });
}
