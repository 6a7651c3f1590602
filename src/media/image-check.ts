// The image check (issue 32), run by the media worker beside fetching: each
// stored picture of a wall with picture rules is classified (safety scores
// per class) and hashed (perceptual hash) from its stored master, downscaled
// in a worker thread of image-check-pool.ts; then each post that waited for
// the check (pending, decided_by `check:image`) is judged by its wall's rules
// with what the check found, and decided — its state written like every
// other decision (the post's revision, a change-log row, webhooks).
//
// Never lost, never approved unseen: a picture that could not be fetched or
// classified leaves its post held for a human with the reason; a stored
// picture checked by an earlier model is checked again in the background
// (picture_checks is the queue, so a restart picks up where it stopped).
import type { Kysely } from 'kysely';
import { compileRules, explainedDecision, needsTextDetectors, ruleSubjectOf, type Rule } from '../domain/rules.js';
import { HistoryJudge, isHistoryRule } from '../domain/spam.js';
import { historyFindingOf } from '../store/ingest.js';
import { loadTextDetectors } from '../domain/text-detectors.js';
import { IMAGE_CHECK_BY, IMAGE_MODEL } from '../domain/image-rules.js';
import { hasProviderRules } from '../domain/provider-rules.js';
import { providerAnswersOf } from '../store/provider-checks.js';
import type { WorkerLogger } from '../jobs/log.js';
import { OnePassAtATime } from '../jobs/one-pass-at-a-time.js';
import { pictureFactsOf, picturesToCheck, saveCheck, type PictureToCheck } from '../store/image-checks.js';
import { decideWaitingPost, postsWaitingFor } from '../store/waiting-posts.js';
import type { Database } from '../store/schema.js';
import type { ImageChecker } from './image-check-pool.js';
import { mediaKey } from './names.js';
import type { MediaStorage } from './types.js';

/** Pictures handed to the pool per round (it runs them a thread's worth at a time). */
const PICTURES_PER_ROUND = 16;
/** Waiting posts judged per round. */
const POSTS_PER_ROUND = 200;

export interface ImageCheckOptions {
  db: Kysely<Database>;
  storage: MediaStorage;
  /** made on first need (the pool starts no thread before) */
  checker: () => ImageChecker;
  now: () => number;
  log: WorkerLogger;
  /** readers of the wall are told (a post's state changed) */
  announce: (wallId: number) => void;
  signal?: AbortSignal;
}

export interface ImageCheckStats {
  checked: number;
  failed: number;
  decided: number;
}

export class ImageCheckRunner {
  readonly stats: ImageCheckStats = { checked: 0, failed: 0, decided: 0 };
  private readonly passes = new OnePassAtATime(
    () => this.pass(),
    (err) => this.options.log.error({ err }, 'image check failed'),
    () => this.options.signal?.aborted === true,
  );

  constructor(private readonly options: ImageCheckOptions) {}

  /** Starts a pass unless one runs (then it runs once more after it); errors are logged. */
  kick(): Promise<void> {
    return this.passes.kick();
  }

  /** Checks and decides until nothing is left to do now. */
  async runOnce(): Promise<void> {
    await this.passes.current;
    await this.pass();
  }

  /** Every picture due now checked, then the waiting posts decided; repeated while either made progress. */
  private async pass(): Promise<void> {
    for (;;) {
      if (this.options.signal?.aborted) return;
      const checked = await this.checkPictures(PICTURES_PER_ROUND);
      const decided = await this.decideWaiting(POSTS_PER_ROUND);
      if (checked === 0 && decided === 0) return;
    }
  }

  /** Checks up to `limit` pictures due; how many. */
  async checkPictures(limit: number): Promise<number> {
    const { db } = this.options;
    const due = await picturesToCheck(db, IMAGE_MODEL, limit);
    if (due.length === 0) return 0;
    await Promise.all(due.map((p) => this.checkOne(p)));
    return due.length;
  }

  private async checkOne(p: PictureToCheck): Promise<void> {
    const { db, storage, now, log } = this.options;
    const stored = await storage.get(mediaKey(p.hash, p.master));
    const result = stored
      ? await this.options.checker().check(stored.bytes, this.options.signal)
      : { ok: false as const, reason: 'the stored picture is missing from the media storage' };
    if (this.options.signal?.aborted) return;
    if (result.ok) {
      await saveCheck(db, p.hash, IMAGE_MODEL, { scores: result.scores, phash: result.phash }, now());
      this.stats.checked++;
    } else {
      await saveCheck(db, p.hash, IMAGE_MODEL, { error: result.reason }, now());
      this.stats.failed++;
      log.warn({ hash: p.hash, reason: result.reason }, 'picture not classified');
    }
  }

  /** Decides the waiting posts whose pictures are all settled and checked; how many. */
  async decideWaiting(limit: number): Promise<number> {
    const { db, now } = this.options;
    const rows = await postsWaitingFor(db, IMAGE_CHECK_BY, limit);
    if (rows.length === 0) return 0;
    let decided = 0;
    const walls = new Map<number, typeof rows>();
    for (const r of rows) walls.set(r.wall_id, [...(walls.get(r.wall_id) ?? []), r]);
    for (const [wallId, posts] of walls) {
      const rules = JSON.parse(posts[0]!.rules) as Rule[];
      // the wall's other rules decide too: language and sentiment rules need the text detectors
      const compiled = compileRules(rules, needsTextDetectors(rules) ? await loadTextDetectors() : undefined);
      const similarHours = Math.max(0, ...rules.map((r) => (r.kind === 'similar_image' ? r.withinHours : 0)));
      const history = rules.some(isHistoryRule) ? () => new HistoryJudge(rules) : null;
      const settled = posts.filter((p) => p.media_state !== null && p.media_state !== 'pending');
      const facts = await pictureFactsOf(db, settled, IMAGE_MODEL, similarHours);
      // the wall's provider rules judge with the answers stored (none yet: the post goes on to wait for its provider)
      const answers = hasProviderRules(posts[0]!.rules)
        ? await providerAnswersOf(
            db,
            settled.map((p) => p.id),
          )
        : null;
      for (const p of posts) {
        const found = facts.get(p.id);
        if (found === undefined || found === 'unready') {
          // a near-duplicate is found among earlier posts' pictures: with a
          // similar_image rule, later posts wait until the earlier ones are checked
          if (similarHours > 0) break;
          continue;
        }
        const subject = ruleSubjectOf(p);
        subject.pictured = true;
        subject.pictures = found;
        if (answers) subject.providers = answers.get(p.id) ?? {};
        let arrival = compiled.decide(subject, p.feed_moderation ?? p.wall_moderation);
        if (arrival.by === IMAGE_CHECK_BY) continue;
        if (history) {
          // the rules that read the wall's recent posts, which the wait kept from judging it on arrival
          const verdict = compiled.first(subject);
          const finding = await historyFindingOf(db, p, history(), verdict?.index ?? Infinity);
          if (finding) arrival = explainedDecision(finding.rule, finding.detail);
        }
        if (await decideWaitingPost(db, p.id, IMAGE_CHECK_BY, arrival, now())) {
          decided++;
          this.options.announce(wallId);
        }
      }
    }
    this.stats.decided += decided;
    return decided;
  }
}
