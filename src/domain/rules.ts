// Moderation rules of a wall: an ordered list, the first rule that matches a
// post decides (reject, hold = pending, approve); when none does, the wall's
// (or feed's) mode does. Pure: compiled once per list, then run per post at
// ingestion and on demand over stored posts.
import { decodeHTML } from 'entities';
import { RegExpMatcher, englishDataset, englishRecommendedTransformers } from 'obscenity';
import type { MediaKind, ModerationMode, PostState } from './lists.js';

export const RULE_KINDS = [
  'keyword',
  'author',
  'profanity',
  'media',
  'repost',
  'reply',
  'sensitive',
  'length',
] as const;
export type RuleKind = (typeof RULE_KINDS)[number];
export const RULE_ACTIONS = ['reject', 'hold', 'approve'] as const;
export type RuleAction = (typeof RULE_ACTIONS)[number];
/** Languages of the profanity filter (obscenity's datasets). */
export const PROFANITY_LANGUAGES = ['en'] as const;
export const MEDIA_REQUIREMENTS = ['any', 'image', 'video'] as const;

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
  );

/** A rule as given (PUT …/rules, a data file): its id, a keyword rule's `match` and a profanity rule's `languages` may be left out. */
export type RuleIn = Rule extends infer R
  ? R extends Rule
    ? Omit<R, Extract<keyof R, 'id' | 'match' | 'languages'>> &
        Partial<Pick<R, Extract<keyof R, 'id' | 'match' | 'languages'>>>
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
      default:
        return { ...r, id } as Rule;
    }
  });
}

/** What the rules look at in a post. `content` is plain text (no markup). */
export interface RuleSubject {
  content: string;
  authorName: string;
  username: string;
  network: string;
  media: MediaKind;
  repost?: boolean;
  reply?: boolean;
  sensitive?: boolean;
  /** profane, when already known (ingestion checks it in its parse workers); else the profanity rule checks */
  profane?: boolean;
}

export interface RuleDecision {
  state: PostState;
  /** `rule:<id>`; null when the mode decided */
  by: string | null;
  reason: string | null;
}

const STATE_OF: Record<RuleAction, PostState> = { reject: 'rejected', hold: 'pending', approve: 'approved' };

/** Lower case, accents and other marks removed, compatibility forms folded: `Crème` → `creme`. */
export function foldText(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase();
}

/** The words of a text, folded: `Free MONEY, now!` → `free`, `money`, `now`. */
function wordsOf(text: string): string[] {
  return foldText(text).match(/[\p{L}\p{N}]+/gu) ?? [];
}

/** A text's words for whole-word matching: the set, and the words between single spaces (` free money now `). */
interface Words {
  set: ReadonlySet<string>;
  line: string;
}

function wordsFor(text: string): Words {
  const words = wordsOf(text);
  return { set: new Set(words), line: ` ${words.join(' ')} ` };
}

/** A keyword phrase as a test on a post's words: a set lookup for one word, else the phrase in the line. */
function phraseTest(phrase: string): ((w: Words) => boolean) | null {
  const words = wordsOf(phrase);
  if (words.length === 0) return null;
  const [first] = words as [string];
  if (words.length === 1) return (w) => w.set.has(first);
  const spaced = ` ${words.join(' ')} `;
  // the first word's lookup rules out most posts before the substring search
  return (w) => w.set.has(first) && w.line.includes(spaced);
}

let profanity: RegExpMatcher | null = null;
function isProfane(text: string): boolean {
  profanity ??= new RegExpMatcher({ ...englishDataset.build(), ...englishRecommendedTransformers });
  return profanity.hasMatch(text);
}

const handle = (name: string) => name.trim().replace(/^@/, '').toLowerCase();

/** What several rules of a list share for one post, computed at most once each: its words, profanity, handle, length. */
interface Shared {
  words(): Words;
  profane(): boolean;
  handle(): string;
  network(): string;
  length(): number;
}

type Test = (s: RuleSubject, shared: Shared) => boolean;

function testOf(rule: Rule): Test {
  switch (rule.kind) {
    case 'keyword': {
      const phrases = rule.words.map(phraseTest).filter((t) => t !== null);
      if (phrases.length === 0) return () => false;
      return rule.match === 'all'
        ? (_s, shared) => phrases.every((t) => t(shared.words()))
        : (_s, shared) => phrases.some((t) => t(shared.words()));
    }
    case 'author': {
      const names = new Set(rule.usernames.map(handle));
      const network = rule.network === null ? null : rule.network.toLowerCase();
      return (_s, shared) => (network === null || shared.network() === network) && names.has(shared.handle());
    }
    case 'profanity':
      return (_s, shared) => shared.profane();
    case 'media':
      return rule.require === 'any' ? (s) => s.media === 'text' : (s) => s.media !== rule.require;
    case 'repost':
      return (s) => s.repost === true;
    case 'reply':
      return (s) => s.reply === true;
    case 'sensitive':
      return (s) => s.sensitive === true;
    case 'length':
      return (_s, shared) => shared.length() < rule.min;
  }
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
};

export interface CompiledRules {
  /** the first rule that matches, or null */
  match(subject: RuleSubject): Rule | null;
  /** the rules' decision, or else the mode's */
  decide(subject: RuleSubject, mode: ModerationMode): RuleDecision;
}

export function ruleDecision(rule: Rule): RuleDecision {
  return { state: STATE_OF[rule.action], by: `rule:${rule.id}`, reason: `${rule.kind} rule: ${REASONS[rule.kind]}` };
}

/** Compiles an ordered rule list once; each call then tests a post against it, first match wins. */
export function compileRules(rules: readonly Rule[]): CompiledRules {
  const tests = rules.map((rule) => ({ rule, test: testOf(rule), decision: ruleDecision(rule) }));
  const first = (subject: RuleSubject) => {
    let words: Words | null = null;
    let profane: boolean | null = null;
    let author: string | null = null;
    let network: string | null = null;
    let length: number | null = null;
    const shared: Shared = {
      words: () => (words ??= wordsFor(`${subject.content}\n${subject.authorName}`)),
      profane: () => (profane ??= subject.profane ?? isProfane(`${subject.content}\n${subject.authorName}`)),
      handle: () => (author ??= handle(subject.username)),
      network: () => (network ??= subject.network.toLowerCase()),
      // in characters as a person counts them (an emoji is one), not UTF-16 units
      length: () => (length ??= [...subject.content.trim()].length),
    };
    for (const t of tests) if (t.test(subject, shared)) return t;
    return null;
  };
  return {
    match: (subject) => first(subject)?.rule ?? null,
    decide(subject, mode) {
      const hit = first(subject);
      if (hit) return hit.decision;
      return { state: mode === 'manual' ? 'pending' : 'approved', by: null, reason: null };
    },
  };
}

/**
 * Stored post HTML (already sanitized to a few formatting tags) → the text the
 * rules read: tags become spaces, character references are decoded (all of
 * HTML's, by `entities`: `Caf&eacute;` reads as `Café`). Cheap: no parse tree.
 */
export function ruleText(html: string): string {
  if (!/[<&]/.test(html)) return html;
  return decodeHTML(html.replace(/<[^>]*>/g, ' '));
}
