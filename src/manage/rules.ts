// A wall's moderation rules: read, replace (or try without saving: a dry
// run reports what they would change in the stored posts), and apply to the
// stored posts on demand. Ingestion applies them to new posts
// (src/ingest/runtime.ts). Each write is audited; an apply announces the wall.
import type { Kysely } from 'kysely';
import {
  compileRules,
  completeRules,
  explainedDecision,
  needsTextDetectors,
  ruleSubjectOf,
  type Rule,
  type RuleDecision,
  type TextDetectors,
} from '../domain/rules.js';
import { IMAGE_MODEL, isPictureRuleKind } from '../domain/image-rules.js';
import { pictureFactsOf } from '../store/image-checks.js';
import { PROVIDER_CHECK_WAIT, PROVIDER_CHECK_BY } from '../domain/provider-rules.js';
import { providerAnswersOf } from '../store/provider-checks.js';
import { HistoryJudge, historyPost, type HistoryPost } from '../domain/spam.js';
import type { PostState } from '../domain/lists.js';
import type { Database } from '../store/schema.js';
import { loadTextDetectors } from '../domain/text-detectors.js';
import type { ApplyInput, ApplyRecord, RuleCount, RulesInput, RulesRecord } from '../schemas/rules.js';
import { cleanWrite, MODERATION_RULES } from '../domain/writes.js';
import { invalid, stored } from '../domain/errors.js';
import { audited, type Op } from './op.js';
import { requireWall } from './walls.js';
import { postsInCreatedOrder, postsToJudge } from '../store/rules.js';

type JudgedRow = Awaited<ReturnType<typeof postsToJudge>>[number];
import { decisionColumns } from '../store/post-columns.js';
import { updatePostsOfWall } from '../store/posts.js';
import { updateWallRow } from '../store/walls.js';

/** The stored rules of a wall row ('[]' when none). */
export function storedRules(json: string): Rule[] {
  return JSON.parse(json) as Rule[];
}

/** The wall's rules, and the names of the moderation providers a provider rule may name. */
export async function getRules(
  db: Kysely<Database>,
  wallId: number,
  providers: readonly string[] = [],
): Promise<RulesRecord> {
  const wall = await requireWall(db, wallId);
  return { rules: storedRules(wall.rules), providers: [...providers] };
}

/** A 400 naming each provider rule whose provider is not configured on this server. */
function checkProviders(rules: readonly Rule[], providers: readonly string[]): void {
  const known = new Set(providers);
  const problems = rules.flatMap((r, i) =>
    r.kind === 'provider' && !known.has(r.provider)
      ? [
          {
            field: `rules[${i}].provider`,
            message:
              `rules[${i}].provider: no moderation provider '${r.provider}' is configured ` +
              `(configured: ${providers.length === 0 ? 'none — see MODERATION_PROVIDERS' : providers.join(', ')})`,
          },
        ]
      : [],
  );
  if (problems.length > 0) throw invalid(problems);
}

interface Plan {
  counts: RuleCount[];
  checked: number;
  /** the posts whose state changes, each with its new decision */
  changes: { id: number; decision: RuleDecision }[];
  /** posts whose pictures the image check has not seen yet, or that their provider has not answered for */
  queued: number;
  /** of those, the pending posts that wait for a provider: an apply sets them waiting for it */
  toAsk: number[];
}

/**
 * The text detectors, when the rules need them (a `language` or `sentiment`
 * rule): loaded on first use, so that the services and the CLI commands that
 * never judge a post do not load their tables.
 */
export async function detectorsFor(rules: readonly Rule[]): Promise<TextDetectors | undefined> {
  if (!needsTextDetectors(rules)) return undefined;
  return loadTextDetectors();
}

const BATCH = 1000;

/**
 * What `rules` decide for the wall's pending (and, with `includeApproved`,
 * approved) posts. Rules that read the wall's history (duplicate, burst)
 * read every post of the wall in created order (then id), as ingestion does:
 * a post is judged against the posts before it, whatever their state, so the
 * earlier post of a pair is never the one matched.
 */
async function plan(db: Kysely<Database>, wallId: number, rules: Rule[], includeApproved: boolean): Promise<Plan> {
  const compiled = compileRules(rules, await detectorsFor(rules));
  const counts = new Map(rules.map((r) => [r.id, { ruleId: r.id, matched: 0, changed: 0 }]));
  const changes: Plan['changes'] = [];
  const states: PostState[] = includeApproved ? ['pending', 'approved'] : ['pending'];
  // picture rules judge on the stored scores and hashes of the image check
  const pictureRules = rules.some((r) => isPictureRuleKind(r.kind));
  const similarHours = Math.max(0, ...rules.map((r) => (r.kind === 'similar_image' ? r.withinHours : 0)));
  const pictureFactsFor = (rows: JudgedRow[]) =>
    pictureRules ? pictureFactsOf(db, rows, IMAGE_MODEL, similarHours) : Promise.resolve(null);
  // provider rules judge on the providers' stored answers; a dry run never asks a provider
  const providerRules = rules.some((r) => r.kind === 'provider');
  const factsOf = async (rows: JudgedRow[]) => ({
    pictures: await pictureFactsFor(rows),
    answers: providerRules
      ? await providerAnswersOf(
          db,
          rows.filter((r) => states.includes(r.state)).map((r) => r.id),
        )
      : null,
  });
  let checked = 0;
  let queued = 0;
  const toAsk: number[] = [];
  const judge = new HistoryJudge(rules);
  const decide = (r: JudgedRow, history: HistoryPost | null, facts: Awaited<ReturnType<typeof factsOf>>) => {
    checked++;
    const subject = ruleSubjectOf(r);
    if (facts.pictures) {
      const found = facts.pictures.get(r.id);
      subject.pictured = true;
      if (found !== 'unready') subject.pictures = found;
    }
    if (facts.answers) subject.providers = facts.answers.get(r.id) ?? {};
    const first = compiled.first(subject);
    const finding = history === null ? null : judge.judge(history, first?.index ?? Infinity);
    if (finding === null && first !== null && first.rule === null) {
      // its pictures are not checked yet (left as it is, queued for the check), or its
      // provider has not answered for it (a pending post is set waiting for the provider)
      queued++;
      if (first.decision.by === PROVIDER_CHECK_BY && r.state === 'pending') toAsk.push(r.id);
      return;
    }
    const rule = finding?.rule ?? first?.rule;
    if (rule === undefined || rule === null) return;
    const decision = finding ? explainedDecision(finding.rule, finding.detail) : first!.decision;
    const count = counts.get(rule.id)!;
    count.matched++;
    if (decision.state !== r.state) {
      count.changed++;
      changes.push({ id: r.id, decision });
    }
  };
  if (!judge.active) {
    let after = 0;
    for (;;) {
      const rows = await postsToJudge(db, wallId, states, after, BATCH);
      if (rows.length === 0) break;
      const facts = await factsOf(rows);
      for (const r of rows) decide(r, null, facts);
      after = rows[rows.length - 1]!.id;
    }
  } else {
    let after: { created_at: number; id: number } | null = null;
    for (;;) {
      const rows = await postsInCreatedOrder(db, wallId, after, BATCH);
      if (rows.length === 0) break;
      const facts = await factsOf(rows);
      for (const r of rows) {
        const history = historyPost(r.id, r, r.text_hash, judge.needsLinks);
        if (states.includes(r.state)) decide(r, history, facts);
        judge.add(history);
      }
      after = rows[rows.length - 1]!;
    }
  }
  return { counts: [...counts.values()], checked, changes, queued, toAsk };
}

/** Replaces the wall's rules; with `dryRun`, saves nothing and reports what they would change in pending posts. */
export async function putRules(
  op: Op,
  wallId: number,
  given: RulesInput,
  dryRun: boolean,
  /** the moderation providers configured (a provider rule naming another is refused) */
  providers: readonly string[] = [],
): Promise<RulesRecord> {
  const rules = completeRules(stored(cleanWrite(given, MODERATION_RULES)).rules);
  checkProviders(rules, providers);
  if (dryRun) {
    await requireWall(op.db, wallId);
    const { counts, queued } = await plan(op.db, wallId, rules, false);
    return { rules, dryRun: true, counts, ...(queued > 0 ? { queued } : {}) };
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
    const { counts, checked, changes, queued, toAsk } = await plan(
      tx.trx,
      wallId,
      rules,
      input.includeApproved === true,
    );
    // posts given the same decision are written together (an explained one is often each post's own)
    const byDecision = new Map<string, { decision: RuleDecision; ids: number[] }>();
    for (const { id, decision } of changes) {
      const k = JSON.stringify(decision);
      const same = byDecision.get(k);
      if (same) same.ids.push(id);
      else byDecision.set(k, { decision, ids: [id] });
    }
    for (const { decision, ids } of byDecision.values()) {
      for (let i = 0; i < ids.length; i += 500) {
        await updatePostsOfWall(tx.trx, wallId, ids.slice(i, i + 500), decisionColumns(decision, op.now));
      }
    }
    // pending posts their provider has not answered for wait for it (the provider check asks in the background)
    for (let i = 0; i < toAsk.length; i += 500) {
      await updatePostsOfWall(tx.trx, wallId, toAsk.slice(i, i + 500), decisionColumns(PROVIDER_CHECK_WAIT, op.now));
    }
    tx.audit({
      action: 'wall.rules.apply',
      targetType: 'wall',
      targetId: wallId,
      after: { counts },
      details: { includeApproved: input.includeApproved === true, checked, ...(queued > 0 ? { queued } : {}) },
    });
    if (counts.some((c) => c.changed > 0) || toAsk.length > 0) tx.wallChanged(wallId);
    return { counts, checked, ...(queued > 0 ? { queued } : {}) };
  });
}
