// The provider check (issue 32), run beside feed ingestion: each post that
// waits for a moderation provider (pending, decided_by `check:provider`) is
// shown to the provider its wall's rule names, the answer is stored, and the
// post is judged by its wall's rules with it and decided — its state written
// like every other decision (the post's revision, a change-log row,
// webhooks). The posts table is the queue: a restart picks up where it
// stopped.
//
// Never lost, never approved by an outage: a provider that gives no answer
// (timeout, outage, circuit open, over budget, a bad answer, or a name no
// longer configured) leaves the post held for a human with the reason.
import type { Kysely } from 'kysely';
import type { ProviderConfig } from '../config.js';
import { arrivalByMode } from '../domain/arrival.js';
import { IMAGE_MODEL, hasItemPictures, hasPictureRules } from '../domain/image-rules.js';
import type { ModerationMode } from '../domain/lists.js';
import { AVATAR_SLOT, pictureSourcesOf, type MediaColumns } from '../domain/media-sources.js';
import { PROVIDER_CHECK_BY, type ProviderAnswer } from '../domain/provider-rules.js';
import {
  compileRules,
  explainedDecision,
  needsTextDetectors,
  ruleSubjectOf,
  ruleText,
  type Rule,
} from '../domain/rules.js';
import { HistoryJudge, isHistoryRule } from '../domain/spam.js';
import { loadTextDetectors } from '../domain/text-detectors.js';
import { OnePassAtATime } from '../jobs/one-pass-at-a-time.js';
import { Ticker } from '../jobs/ticker.js';
import type { WorkerLogger } from '../jobs/log.js';
import { pictureFactsOf } from '../store/image-checks.js';
import { historyFindingOf } from '../store/ingest.js';
import { providerAnswersOf, saveProviderAnswer } from '../store/provider-checks.js';
import { decideWaitingPost, postsWaitingFor } from '../store/waiting-posts.js';
import type { Database } from '../store/schema.js';
import { httpModeration } from './http-provider.js';
import { openAiModeration } from './openai-provider.js';
import { resilientProvider, UNANSWERED, type ModerationInput, type Provider, type Unanswered } from './provider.js';

/** Waiting posts judged per round. */
const POSTS_PER_ROUND = 100;
/** How often the worker looks for posts waiting for a provider. */
export const PROVIDER_TICK_MS = 2_000;

/** A configured provider, ready to ask, and the protocol it speaks (shown in decisions). */
export interface ConfiguredProvider {
  provider: Provider;
  protocol: string;
}

/** The providers of MODERATION_PROVIDERS, by name, each behind its timeout, circuit breaker and budget. */
export function providersFromConfig(
  configs: readonly ProviderConfig[],
  now?: () => number,
): Map<string, ConfiguredProvider> {
  return new Map(
    configs.map((c) => {
      const apiKey = c.apiKey?.reveal();
      const adapter =
        c.protocol === 'openai'
          ? openAiModeration({ baseUrl: c.url, apiKey, model: c.model, pictures: c.pictures })
          : httpModeration({ url: c.url, token: apiKey, model: c.model });
      const provider = resilientProvider(c.name, adapter, {
        timeoutMs: c.timeoutMs,
        failuresToOpen: c.failuresToOpen,
        openForMs: c.openForMs,
        dailyBudget: c.dailyBudget,
        ...(now ? { now } : {}),
      });
      return [c.name, { provider, protocol: c.protocol }] as const;
    }),
  );
}

/** How a call to a provider ended: answered, or why not (the metrics' `outcome` label). */
export const CALL_OUTCOMES = ['answered', ...UNANSWERED] as const;
export type CallOutcome = (typeof CALL_OUTCOMES)[number];

export interface ProviderCheckStats {
  /** calls per provider, by outcome */
  calls: Record<string, Record<CallOutcome, number>>;
  /** posts decided */
  decided: number;
}

export interface ProviderCheckOptions {
  db: Kysely<Database>;
  providers: ReadonlyMap<string, ConfiguredProvider>;
  now: () => number;
  log: WorkerLogger;
  /** readers of the wall are told (a post's state changed) */
  announce: (wallId: number) => void;
}

type WaitingRow = Awaited<ReturnType<typeof postsWaitingFor>>[number];

export class ProviderCheckRunner {
  readonly stats: ProviderCheckStats = { calls: {}, decided: 0 };
  private ticker: Ticker | null = null;
  private readonly abort = new AbortController();
  private readonly passes = new OnePassAtATime(
    () => this.pass(),
    (err) => this.options.log.error({ err }, 'provider check failed'),
    () => this.abort.signal.aborted,
  );

  constructor(private readonly options: ProviderCheckOptions) {
    for (const name of options.providers.keys()) this.stats.calls[name] = zeroCalls();
  }

  /** Each configured provider's circuit (closed, open, half-open, isolated), for the metrics. */
  circuits(): { provider: string; circuit: string }[] {
    return [...this.options.providers].map(([provider, p]) => ({ provider, circuit: p.provider.state().circuit }));
  }

  /** Looks for waiting posts every `everyMs` until stop(). */
  start(everyMs = PROVIDER_TICK_MS): void {
    if (this.ticker || this.abort.signal.aborted) return;
    this.ticker = new Ticker(
      everyMs,
      () => this.kick(),
      (err) => this.options.log.error({ err }, 'provider check tick failed'),
    );
  }

  /** Stops the tick and waits for the pass under way (it ends after the post it is deciding). */
  async stop(): Promise<void> {
    this.abort.abort();
    this.ticker?.stop();
    this.ticker = null;
    await this.passes.current;
  }

  /** Starts a pass unless one runs (then it runs once more after it); errors are logged. */
  kick(): Promise<void> {
    return this.passes.kick();
  }

  /** Decides every waiting post (asking their providers) until none is left. */
  async runOnce(): Promise<void> {
    await this.passes.current;
    await this.pass();
  }

  private async pass(): Promise<void> {
    while (!this.abort.signal.aborted) {
      if ((await this.decideWaiting(POSTS_PER_ROUND)) === 0) return;
    }
  }

  /** Asks for and decides up to `limit` waiting posts; how many were decided. */
  async decideWaiting(limit: number): Promise<number> {
    const { db, now } = this.options;
    const rows = await postsWaitingFor(db, PROVIDER_CHECK_BY, limit);
    if (rows.length === 0) return 0;
    let decided = 0;
    const walls = new Map<number, WaitingRow[]>();
    for (const r of rows) walls.set(r.wall_id, [...(walls.get(r.wall_id) ?? []), r]);
    for (const [wallId, posts] of walls) {
      const rules = JSON.parse(posts[0]!.rules) as Rule[];
      const compiled = compileRules(rules, needsTextDetectors(rules) ? await loadTextDetectors() : undefined);
      const stored = await providerAnswersOf(
        db,
        posts.map((p) => p.id),
      );
      // the wall's picture rules judge too: with what the image check found, or (not checked yet) they make the post wait for it
      const pictureRules = hasPictureRules(posts[0]!.rules);
      const history = rules.some(isHistoryRule) ? () => new HistoryJudge(rules) : null;
      const similarHours = Math.max(0, ...rules.map((r) => (r.kind === 'similar_image' ? r.withinHours : 0)));
      const facts = pictureRules
        ? await pictureFactsOf(
            db,
            posts.filter((p) => p.media_state !== null && p.media_state !== 'pending'),
            IMAGE_MODEL,
            similarHours,
          )
        : null;
      for (const p of posts) {
        if (this.abort.signal.aborted) break;
        const subject = ruleSubjectOf(p);
        if (pictureRules) {
          subject.pictured = hasItemPictures(p);
          const found = facts?.get(p.id);
          if (found !== undefined && found !== 'unready') subject.pictures = found;
        }
        const answers: Record<string, ProviderAnswer> = { ...stored.get(p.id) };
        subject.providers = answers;
        const mode = (p.feed_moderation ?? p.wall_moderation) as ModerationMode;
        // each provider rule the post reaches asks its provider once; then the rules decide
        for (;;) {
          const first = compiled.first(subject);
          let arrival = first?.decision ?? arrivalByMode(mode);
          if (arrival.by !== PROVIDER_CHECK_BY) {
            if (history) {
              // the rules that read the wall's recent posts, which the wait kept from judging it on arrival
              const finding = await historyFindingOf(db, p, history(), first?.index ?? Infinity);
              if (finding) arrival = explainedDecision(finding.rule, finding.detail);
            }
            if (await decideWaitingPost(db, p.id, PROVIDER_CHECK_BY, arrival, now())) {
              decided++;
              this.options.announce(wallId);
            }
            break;
          }
          const rule = rules[first!.index] as Extract<Rule, { kind: 'provider' }>;
          answers[rule.provider] = await this.ask(rule.provider, p);
        }
      }
    }
    this.stats.decided += decided;
    return decided;
  }

  /** One provider's answer about a post (stored when it is one), or why there is none. */
  private async ask(name: string, p: WaitingRow): Promise<ProviderAnswer> {
    const configured = this.options.providers.get(name);
    if (configured === undefined)
      return { ok: false, why: 'not configured', detail: `no provider '${name}' in MODERATION_PROVIDERS` };
    const outcome = await configured.provider.ask(moderationInput(p));
    const calls = (this.stats.calls[name] ??= zeroCalls());
    if (!outcome.ok) {
      calls[outcome.why as Unanswered]++;
      this.options.log.warn({ provider: name, post: p.id, why: outcome.why }, 'moderation provider gave no answer');
      return { ok: false, why: outcome.why, detail: outcome.detail };
    }
    calls.answered++;
    const answer = { model: outcome.verdict.model, protocol: configured.protocol, labels: outcome.verdict.labels };
    await saveProviderAnswer(this.options.db, p.id, name, answer, this.options.now());
    return { ok: true, ...answer };
  }
}

const zeroCalls = (): Record<CallOutcome, number> =>
  Object.fromEntries(CALL_OUTCOMES.map((o) => [o, 0])) as Record<CallOutcome, number>;

/** What a provider is shown of a post: its text, its items' pictures (not its author's avatar), its author and network. */
export function moderationInput(
  p: MediaColumns & { content: string; username: string; network_name: string },
): ModerationInput {
  return {
    text: ruleText(p.content),
    pictures: pictureSourcesOf(p)
      .filter((s) => s.slot !== AVATAR_SLOT)
      .map((s) => s.url),
    author: p.username,
    network: p.network_name,
  };
}
