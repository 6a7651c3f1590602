// Moderation rules of a wall: an ordered list, the first rule that matches a
// post decides (reject, hold = pending, approve); when none does, the wall's
// (or feed's) mode does. Pure: compiled once per list, then run per post at
// ingestion and on demand over stored posts.
import { arrivalByMode, type Arrival } from './arrival.js';
import { explainDecision, type DecisionDetail } from './decision.js';
import type { MediaKind, ModerationMode, PostState } from './lists.js';
import { RULE_FLAG_COLUMNS, type RuleFlagColumn } from './post-fields.js';
import { isProfane } from './profanity.js';
import { RIGHTS_STATES, type RightsState } from './rights.js';
import { LANGUAGE_MODEL, SENTIMENT_LANGUAGES, SENTIMENT_MODEL, type DetectedLanguage } from './text-signals.js';
import {
  DEFAULT_IMAGE_CLASSES,
  DEFAULT_IMAGE_THRESHOLD,
  DEFAULT_SIMILAR_DISTANCE,
  DEFAULT_SIMILAR_HOURS,
  IMAGE_CHECK_WAIT,
  isPictureRuleKind,
  pictureArrival,
  pictureFinding,
  uncheckedArrival,
  type ImageRuleFields,
  type PictureFacts,
} from './image-rules.js';
import {
  DEFAULT_PROVIDER_THRESHOLD,
  PROVIDER_CHECK_BY,
  providerArrival,
  type ProviderAnswer,
  type ProviderRuleFields,
} from './provider-rules.js';
import { foldText, ruleText } from './rule-text.js';
import { accountFinding, BURST_BY, DUPLICATE_DISTANCE, isLinkOnly, type SpamRuleFields } from './spam.js';

export { foldText, ruleText };
export { BURST_BY };

export const RULE_KINDS = [
  'keyword',
  'author',
  'profanity',
  'media',
  'repost',
  'reply',
  'sensitive',
  'length',
  // text signals (issue 32): the post's language (eld), its sentiment (AFINN)
  'language',
  'sentiment',
  // picture rules (src/domain/image-rules.ts)
  'image',
  'similar_image',
  // spam (src/domain/spam.ts): duplicate and burst read the wall's recent posts
  'duplicate',
  'burst',
  'link_only',
  'account',
  // a moderation provider the operator configured (src/domain/provider-rules.ts)
  'provider',
  // the post's rights state (issue 36): judged again whenever it changes (rightsRuleDecision)
  'rights',
] as const;
export type RuleKind = (typeof RULE_KINDS)[number];
export const RULE_ACTIONS = ['reject', 'hold', 'approve'] as const;
/** An image rule's actions: blur is hold, the picture shown blurred in the console until a moderator reveals it. */
export const IMAGE_RULE_ACTIONS = [...RULE_ACTIONS, 'blur'] as const;
export type RuleAction = (typeof IMAGE_RULE_ACTIONS)[number];
/** Languages of the profanity filter (obscenity's datasets). */
export const PROFANITY_LANGUAGES = ['en'] as const;
export const MEDIA_REQUIREMENTS = ['any', 'image', 'video'] as const;
/** What a `rights` rule may list: a rights state, or none (never asked). */
export const RIGHTS_RULE_STATES = ['none', ...RIGHTS_STATES] as const;
export type RightsRuleState = (typeof RIGHTS_RULE_STATES)[number];
/** A `language` rule: allow (posts in another language match) or block (posts in a listed language match). */
export const LANGUAGE_MODES = ['allow', 'block'] as const;
/** What a `language` rule does with a post whose language cannot be told: pass (default: no match) or match. */
export const UNKNOWN_LANGUAGE = ['pass', 'match'] as const;

interface Base {
  id: string;
  action: RuleAction;
}
export type Rule = Base &
  (
    | { kind: 'keyword'; words: string[]; match: 'any' | 'all' }
    | { kind: 'author'; network: string | null; usernames: string[] }
    | { kind: 'profanity'; languages: (typeof PROFANITY_LANGUAGES)[number][] }
    | { kind: 'media'; require: (typeof MEDIA_REQUIREMENTS)[number] }
    | { kind: 'repost' | 'reply' | 'sensitive' }
    | { kind: 'length'; min: number }
    | {
        kind: 'language';
        languages: DetectedLanguage[];
        mode: (typeof LANGUAGE_MODES)[number];
        unknown: (typeof UNKNOWN_LANGUAGE)[number];
      }
    | { kind: 'sentiment'; below: number }
    | ImageRuleFields
    // spam: duplicate, burst, link_only, account (src/domain/spam.ts)
    | SpamRuleFields
    | ProviderRuleFields
    | { kind: 'rights'; states: RightsRuleState[] }
  );

/** Fields a rule may leave out (each kind's default is written out by completeRules). */
type Defaulted =
  'id' | 'match' | 'languages' | 'unknown' | 'classes' | 'threshold' | 'distance' | 'withinHours' | 'labels';
/** A rule as given (PUT …/rules, a data file): its id, a keyword rule's `match`, a profanity rule's `languages`, a language rule's `unknown`, the picture rules' settings and a duplicate rule's `distance` may be left out. */
export type RuleIn = Rule extends infer R
  ? R extends Rule
    ? R extends { kind: 'language' }
      ? Omit<R, 'id' | 'unknown'> & Partial<Pick<R, 'id' | 'unknown'>>
      : R extends { kind: 'provider' }
        ? Omit<R, 'id' | 'labels' | 'threshold' | 'action'> & Partial<Pick<R, 'id' | 'labels' | 'threshold' | 'action'>>
        : Omit<R, Extract<keyof R, Defaulted>> & Partial<Pick<R, Extract<keyof R, Defaulted>>>
    : never
  : never;

/** Rules as given → as stored: ids assigned where absent (r1, r2, … not used yet), defaults written out. */
export function completeRules(input: readonly RuleIn[]): Rule[] {
  const taken = new Set(input.map((r) => r.id).filter((id): id is string => id !== undefined));
  let next = 1;
  const fresh = () => {
    while (taken.has(`r${next}`)) next++;
    taken.add(`r${next}`);
    return `r${next}`;
  };
  return input.map((r) => {
    const id = r.id ?? fresh();
    switch (r.kind) {
      case 'keyword':
        return { ...r, id, match: r.match ?? 'any' };
      case 'profanity':
        return { ...r, id, languages: r.languages ?? ['en'] };
      case 'language':
        return { ...r, id, unknown: r.unknown ?? 'pass' };
      case 'image':
        return {
          ...r,
          id,
          classes: r.classes ?? [...DEFAULT_IMAGE_CLASSES],
          threshold: r.threshold ?? DEFAULT_IMAGE_THRESHOLD,
        };
      case 'similar_image':
        return {
          ...r,
          id,
          distance: r.distance ?? DEFAULT_SIMILAR_DISTANCE,
          withinHours: r.withinHours ?? DEFAULT_SIMILAR_HOURS,
        };
      case 'duplicate':
        return { ...r, id, distance: r.distance ?? DUPLICATE_DISTANCE };
      case 'provider':
        return {
          ...r,
          id,
          action: r.action ?? 'hold',
          labels: r.labels ?? null,
          threshold: r.threshold ?? DEFAULT_PROVIDER_THRESHOLD,
        };
      default:
        return { ...r, id } as Rule;
    }
  });
}

/**
 * What the rules look at in a post. `content` is plain text (no markup); the
 * flags are the registry's that rules see (src/domain/post-fields.ts: repost,
 * reply, sensitive), each judged by the rule of the same kind.
 */
export interface RuleSubject extends Partial<Record<RuleFlagColumn, boolean>> {
  content: string;
  /** the stored HTML `content` was read from (the `link_only` rule reads its links); absent: `content` */
  html?: string;
  authorName: string;
  username: string;
  network: string;
  media: MediaKind;
  /** the post's language (ISO 639-1), null when it cannot be told; absent: not detected yet, the detector reads `content` when a rule asks */
  lang?: string | null;
  /** the post shows pictures (its items', not its avatar); absent: `media` is image */
  pictured?: boolean;
  /** what the image check found of its pictures; absent: not checked yet (picture rules make it wait) */
  pictures?: PictureFacts;
  /** what each moderation provider asked said of it, by provider name; absent (or a provider missing): not asked yet (provider rules make it wait) */
  providers?: Readonly<Record<string, ProviderAnswer>>;
  /** when the post was made (epoch ms): the `account` rule's age of the author's account */
  createdAt?: number | null;
  /** when the author's account was made (epoch ms), where the network says: the `account` rule */
  authorCreatedAt?: number | null;
  /** the post's rights state (src/domain/rights.ts); null or absent: none (never asked, as every new post) */
  rights?: RightsState | null;
}

/**
 * The detectors of the text signals (src/domain/text-detectors.ts): kept out
 * of this module, which schemas and the CLI load, because their tables take
 * a fifth of a second to load. Only rule lists with a `language` or
 * `sentiment` rule need them.
 */
export interface TextDetectors {
  /** the ISO 639-1 code of a plain text's language, or null when it cannot be told */
  language(text: string): string | null;
  /** a plain text's sentiment on −1 … +1 (src/domain/text-signals.ts normalizedSentiment) */
  sentiment(text: string): number;
}

/** What a detecting rule found in one post: its decision's detail, but for the rule's id and kind. */
export type Finding = Pick<DecisionDetail, 'label' | 'score' | 'threshold' | 'model'>;

/** The arrival a rule (`by`: `rule:<id>`) or else the moderation mode (`by`: null) gives a post. */
export type RuleDecision = Arrival;

const STATE_OF: Record<RuleAction, PostState> = {
  reject: 'rejected',
  hold: 'pending',
  approve: 'approved',
  blur: 'pending',
};

// Most posts are plain ASCII: their words need no Unicode normalization or
// Unicode-aware classes, and this is the hot path of every poll with rules.
const ASCII = /^[\x00-\x7f]*$/;

/** The words of a text, folded: `Free MONEY, now!` → `free`, `money`, `now`. */
function wordsOf(text: string): string[] {
  if (ASCII.test(text)) return text.toLowerCase().match(/[a-z0-9]+/g) ?? [];
  return foldText(text).match(/[\p{L}\p{N}]+/gu) ?? [];
}

/** A text's words for whole-word matching: the set, and the words between single spaces (` free money now `). */
interface Words {
  set: ReadonlySet<string>;
  line: string;
}

function wordsFor(words: readonly string[]): Words {
  let line: string | null = null;
  return {
    set: new Set(words),
    // only phrases of several words read it
    get line() {
      return (line ??= ` ${words.join(' ')} `);
    },
  };
}

/** A keyword phrase: its first word, and a test on a post's words (a set lookup for one word, else the phrase in the line). */
function phraseTest(phrase: string): { first: string; test: (w: Words) => boolean } | null {
  const words = wordsOf(phrase);
  if (words.length === 0) return null;
  const [first] = words as [string];
  if (words.length === 1) return { first, test: (w) => w.set.has(first) };
  const spaced = ` ${words.join(' ')} `;
  // the first word's lookup rules out most posts before the substring search
  return { first, test: (w) => w.set.has(first) && w.line.includes(spaced) };
}

const SURROGATE = /[\uD800-\uDFFF]/;

/** Length in characters as a person counts them (an emoji is one), not UTF-16 units. */
function charCount(text: string): number {
  if (!SURROGATE.test(text)) return text.length;
  let n = 0;
  for (const _ of text) n++;
  return n;
}

const handle = (name: string) => name.trim().replace(/^@/, '').toLowerCase();

/**
 * One post as the rules of a list see it: what several rules share (its
 * words, profanity, handle, network, length) computed at most once, when a
 * rule first asks. `vocabulary` holds the first word of every keyword phrase
 * of the list, so a post mentioning none of them (most posts) is done with
 * every keyword rule after one pass over its words.
 */
class PostView {
  private wordList: string[] | null = null;
  private wordSet: Words | null = null;
  private mentioned: boolean | null = null;
  private isProfaneText: boolean | null = null;
  private authorHandle: string | null = null;
  private networkName: string | null = null;
  private chars: number | null = null;
  private language: string | null | undefined = undefined;
  private feeling: number | null = null;
  private onlyLinks: boolean | null = null;

  constructor(
    readonly subject: RuleSubject,
    private readonly vocabulary: ReadonlySet<string>,
    private readonly detectors: TextDetectors | null,
  ) {}

  private list(): string[] {
    return (this.wordList ??= wordsOf(`${this.subject.content}\n${this.subject.authorName}`));
  }
  /** does the post hold the first word of any keyword phrase of the list? */
  mentionsAny(): boolean {
    return (this.mentioned ??= this.list().some((w) => this.vocabulary.has(w)));
  }
  words(): Words {
    return (this.wordSet ??= wordsFor(this.list()));
  }
  profane(): boolean {
    return (this.isProfaneText ??= isProfane(`${this.subject.content}\n${this.subject.authorName}`));
  }
  handle(): string {
    return (this.authorHandle ??= handle(this.subject.username));
  }
  network(): string {
    return (this.networkName ??= this.subject.network.toLowerCase());
  }
  length(): number {
    return (this.chars ??= charCount(this.subject.content.trim()));
  }
  /** the stored language, else the detector's (a post stored before languages were: computed on the fly) */
  lang(): string | null {
    if (this.language === undefined)
      this.language =
        this.subject.lang !== undefined ? this.subject.lang : this.detectors!.language(this.subject.content);
    return this.language;
  }
  sentiment(): number {
    return (this.feeling ??= this.detectors!.sentiment(this.subject.content));
  }
  linkOnly(): boolean {
    return (this.onlyLinks ??= isLinkOnly(this.subject.html ?? this.subject.content));
  }
}

/** Whether a rule matches a post: yes or no, or (a detecting rule) what it found. */
type Test = (post: PostView) => boolean | Finding | null;

/** A rule as a test, and the first words of its keyword phrases (for the list's vocabulary). */
interface RuleTest {
  test: Test;
  firstWords: string[];
}

function testOf(rule: Rule): RuleTest {
  const plain = (test: Test) => ({ test, firstWords: [] });
  switch (rule.kind) {
    case 'keyword': {
      const phrases = rule.words.map(phraseTest).filter((t) => t !== null);
      const tests = phrases.map((p) => p.test);
      if (tests.length === 0) return plain(() => false);
      const firstWords = phrases.map((p) => p.first);
      return {
        firstWords,
        test:
          rule.match === 'all'
            ? (post) => post.mentionsAny() && tests.every((t) => t(post.words()))
            : (post) => post.mentionsAny() && tests.some((t) => t(post.words())),
      };
    }
    case 'author': {
      const names = new Set(rule.usernames.map(handle));
      const network = rule.network === null ? null : rule.network.toLowerCase();
      return plain((post) => (network === null || post.network() === network) && names.has(post.handle()));
    }
    case 'profanity':
      return plain((post) => post.profane());
    case 'media':
      return plain(
        rule.require === 'any'
          ? (post) => post.subject.media === 'text'
          : (post) => post.subject.media !== rule.require,
      );
    case 'repost':
      return plain((post) => post.subject.repost === true);
    case 'reply':
      return plain((post) => post.subject.reply === true);
    case 'sensitive':
      return plain((post) => post.subject.sensitive === true);
    case 'length':
      return plain((post) => post.length() < rule.min);
    case 'language':
    case 'sentiment':
      return plain(signalTest(rule));
    case 'image':
    case 'similar_image':
      // judged on the image check's facts (compileRules), never on the text
      return plain(() => false);
    case 'provider':
      // judged on the provider's answer (compileRules)
      return plain(() => false);
    case 'rights': {
      const states: ReadonlySet<RightsRuleState> = new Set(rule.states);
      return plain((post) => states.has(post.subject.rights ?? 'none'));
    }
    // spam: duplicate and burst need the wall's recent posts, judged where posts are written (HistoryJudge)
    case 'duplicate':
    case 'burst':
      return plain(() => false);
    case 'link_only':
      return plain((post) => post.linkOnly());
    case 'account': {
      const finding = (post: PostView) =>
        accountFinding(rule, {
          authorBot: post.subject.author_bot === true,
          authorCreatedAt: post.subject.authorCreatedAt ?? null,
          createdAt: post.subject.createdAt ?? null,
        });
      return plain((post) => {
        const label = finding(post);
        return label === null ? null : { label, score: null, threshold: null, model: null };
      });
    }
  }
}

// ── Text signals (issue 32) ─────────────────────────────────────────────

const SENTIMENT_READS: ReadonlySet<string | null> = new Set([...SENTIMENT_LANGUAGES, null]);
/** Three decimals are kept of a measured score: it is shown with two. */
const kept = (n: number) => Math.round(n * 1000) / 1000;

/**
 * A `language` rule: allow — a post in a language not listed matches; block
 * — a post in a listed language matches; a post whose language cannot be
 * told matches only with `unknown: 'match'`. A `sentiment` rule: a post
 * whose sentiment is below the rule's `below` matches — read only in the
 * languages of the lexicon (English) or when the language is unknown; a post
 * detected in another language never matches.
 */
function signalTest(rule: Extract<Rule, { kind: 'language' | 'sentiment' }>): Test {
  if (rule.kind === 'language') {
    const listed: ReadonlySet<string> = new Set(rule.languages);
    const allow = rule.mode === 'allow';
    const unknown = rule.unknown === 'match';
    return (post) => {
      const lang = post.lang();
      const matches = lang === null ? unknown : listed.has(lang) !== allow;
      return matches ? { label: lang ?? 'unknown', score: null, threshold: null, model: LANGUAGE_MODEL } : null;
    };
  }
  return (post) => {
    if (!SENTIMENT_READS.has(post.lang())) return null;
    const score = post.sentiment();
    return score < rule.below
      ? { label: 'negative', score: kept(score), threshold: rule.below, model: SENTIMENT_MODEL }
      : null;
  };
}

/** The rule kinds that read a text signal: a list with one needs the text detectors. */
const SIGNAL_KINDS: ReadonlySet<RuleKind> = new Set(['language', 'sentiment']);

/** Whether a rule list reads a text signal (language, sentiment): compiled, it needs the text detectors. */
export function needsTextDetectors(rules: readonly Rule[]): boolean {
  return rules.some((r) => SIGNAL_KINDS.has(r.kind));
}

const REASONS: Record<RuleKind, string> = {
  keyword: 'a keyword matched',
  author: 'its author is listed',
  profanity: 'profanity',
  media: 'not the media the wall requires',
  repost: 'a repost',
  reply: 'a reply',
  sensitive: 'flagged sensitive upstream',
  length: 'text too short',
  language: 'not in the languages allowed',
  sentiment: 'strongly negative',
  image: 'the picture scored over the threshold',
  similar_image: 'a picture like one the wall showed shortly before',
  duplicate: 'it repeats an earlier post',
  burst: 'too many posts at once',
  link_only: 'nothing but links, hashtags or mentions',
  account: 'a bot or a new account',
  provider: 'the moderation provider scored it over the threshold',
  rights: 'its rights state',
};

/** How a rights state reads in a decision's reason. */
const RIGHTS_SAID: Record<RightsRuleState, string> = {
  none: 'rights never asked for',
  requested: 'rights requested',
  granted: 'rights granted',
  declined: 'rights declined',
  expired: 'rights request expired',
  revoked: 'rights revoked',
};

/** The first rule that decides a post, and its decision; rule null: the post waits for the image check or a provider. */
export interface Verdict {
  rule: Rule | null;
  /** the rule's position in the list (the waiting picture rule's, for a wait) */
  index: number;
  decision: RuleDecision;
}

export interface CompiledRules {
  /** the first rule that decides, with its decision (picture rules: their detail), or null */
  find(subject: RuleSubject): Verdict | null;
  /** the first rule that matches, or null */
  match(subject: RuleSubject): Rule | null;
  /** the decision of the first rule that matches (with what a detecting rule found), or null */
  judge(subject: RuleSubject): RuleDecision | null;
  /**
   * The first rule that matches, its position in the list and its decision,
   * or null. Rules that read the wall's history (duplicate, burst) never
   * match here: the caller asks a HistoryJudge (src/domain/spam.ts) about
   * those placed before `index`.
   */
  first(subject: RuleSubject): Verdict | null;
  /** the rules' decision, or else the mode's */
  decide(subject: RuleSubject, mode: ModerationMode): RuleDecision;
}

export function ruleDecision(rule: Rule): RuleDecision {
  return { state: STATE_OF[rule.action], by: `rule:${rule.id}`, reason: `${rule.kind} rule: ${REASONS[rule.kind]}` };
}

/** A `rights` rule's decision about a post in `state`: its reason says the state (`rights rule: rights granted`). */
function rightsDecision(rule: Rule, state: RightsRuleState): RuleDecision {
  return { state: STATE_OF[rule.action], by: `rule:${rule.id}`, reason: `rights rule: ${RIGHTS_SAID[state]}` };
}

/**
 * What the wall's rules decide when a post's rights state changes to
 * `state`: the first `rights` rule listing it, or null (no such rule). Only
 * rights rules are read — a change of rights says nothing new about the
 * post's words, pictures or author, so the other rules are not run again.
 */
export function rightsRuleDecision(rules: readonly Rule[], state: RightsState | null): RuleDecision | null {
  const said = state ?? 'none';
  const rule = rules.find((r) => r.kind === 'rights' && r.states.includes(said));
  return rule === undefined ? null : rightsDecision(rule, said);
}

/** The decision of a rule that explains what it found: its reason is the explained line, the detail kept beside it. */
export function explainedDecision(rule: Rule, detail: DecisionDetail): RuleDecision {
  const state = STATE_OF[rule.action];
  return { state, by: `rule:${rule.id}`, reason: explainDecision(state, detail), detail };
}

/** A detecting rule's decision about one post: what it found, as its decision's detail. */
function foundDecision(rule: Rule, found: Finding): RuleDecision {
  return explainedDecision(rule, { rule: rule.id, kind: rule.kind, ...found });
}

/**
 * Compiles an ordered rule list once; each call then tests a post against
 * it, first match wins. A list with a `language` or `sentiment` rule needs
 * the text detectors (src/domain/text-detectors.ts).
 */
export function compileRules(rules: readonly Rule[], detectors?: TextDetectors): CompiledRules {
  if (detectors === undefined && needsTextDetectors(rules))
    throw new Error('language and sentiment rules are compiled with the text detectors');
  const tests = rules.map((rule, index) => ({ rule, index, ...testOf(rule), decision: ruleDecision(rule) }));
  const vocabulary = new Set(tests.flatMap((t) => t.firstWords));
  const first = (subject: RuleSubject): Verdict | null => {
    const post = new PostView(subject, vocabulary, detectors ?? null);
    for (const t of tests) {
      if (isPictureRuleKind(t.rule.kind)) {
        const picture = pictureVerdict(t.rule as Rule & ImageRuleFields, subject);
        if (picture !== null) return { ...picture, index: t.index };
        continue;
      }
      if (t.rule.kind === 'provider') {
        const rule = t.rule;
        const arrival = providerArrival(rule, STATE_OF[rule.action], subject.providers);
        if (arrival === null) continue;
        return { rule: arrival.by === PROVIDER_CHECK_BY ? null : rule, index: t.index, decision: arrival };
      }
      const found = t.test(post);
      if (found === true && t.rule.kind === 'rights')
        return { rule: t.rule, index: t.index, decision: rightsDecision(t.rule, subject.rights ?? 'none') };
      if (found === true) return { rule: t.rule, index: t.index, decision: t.decision };
      if (found !== false && found !== null)
        return { rule: t.rule, index: t.index, decision: foundDecision(t.rule, found) };
    }
    return null;
  };
  return {
    find: first,
    match: (subject) => first(subject)?.rule ?? null,
    judge: (subject) => first(subject)?.decision ?? null,
    first,
    decide(subject, mode) {
      return first(subject)?.decision ?? arrivalByMode(mode);
    },
  };
}

/**
 * A picture rule's verdict: none for a post without pictures; the wait for
 * the image check while its pictures' facts are unknown; then the rule's
 * action with what it found, a hold for a human when a picture could not be
 * checked, or none.
 */
function pictureVerdict(rule: Rule & ImageRuleFields, subject: RuleSubject): Omit<Verdict, 'index'> | null {
  const pictured = subject.pictured ?? subject.media === 'image';
  if (!pictured) return null;
  if (subject.pictures === undefined) return { rule: null, decision: IMAGE_CHECK_WAIT };
  const found = pictureFinding(rule, subject.pictures);
  if (found === null) return null;
  if ('unchecked' in found) return { rule, decision: uncheckedArrival(rule, found.unchecked) };
  return { rule, decision: pictureArrival(rule, STATE_OF[rule.action], found.detail) };
}

/** A post's columns as the rules read them (a stored row, or a row ingestion is about to store). */
export interface RuleColumns extends Record<RuleFlagColumn, number> {
  content: string;
  created_at: number;
  author_created_at: number | null;
  author_name: string;
  username: string;
  network_name: string;
  media: MediaKind;
  /** the stored language; null (or absent): not known, detected when a rule asks */
  lang?: string | null;
  /** the stored rights state; null (or absent: a post arriving): none */
  rights_state?: RightsState | null;
}

/** What the rules see of a post: its stored HTML read as text, its flags as booleans. */
export function ruleSubjectOf(p: RuleColumns): RuleSubject {
  const subject: RuleSubject = {
    content: ruleText(p.content),
    html: p.content,
    createdAt: p.created_at,
    authorCreatedAt: p.author_created_at,
    authorName: p.author_name,
    username: p.username,
    network: p.network_name,
    media: p.media,
  };
  if (p.lang !== undefined && p.lang !== null) subject.lang = p.lang;
  if (p.rights_state !== undefined && p.rights_state !== null) subject.rights = p.rights_state;
  for (const c of RULE_FLAG_COLUMNS) subject[c] = p[c] === 1;
  return subject;
}
