// Spam signals of the moderation rules `duplicate`, `burst`, `link_only` and
// `account`. Pure. `link_only` and `account` read one post (src/domain/rules.ts
// runs them with the other rules, in the parse workers). `duplicate` and
// `burst` read the wall's recent history: a HistoryJudge is fed the wall's
// posts in their order — created time, then id — and judges each post it is
// asked about against the posts fed before it, within the rule's window.
// Ingestion feeds it the wall's stored posts of the window and the poll's new
// posts (src/store/ingest.ts); applying rules feeds it every post of the wall
// (src/manage/rules.ts). Both orders are the same, so both give the same
// answer: the earlier post of a pair is never the duplicate, and of three
// identical posts the 2nd and 3rd are, whether they arrived in one poll or three.
import type { DecisionDetail } from './decision.js';
import { ruleText } from './rule-text.js';
import { hammingHalves, hashHalves, simhash, SIMHASH_MODEL } from './simhash.js';

/** What a `burst` rule counts posts by. */
export const BURST_BY = ['author', 'link'] as const;
/** The default Hamming distance of a `duplicate` rule. */
export const DUPLICATE_DISTANCE = 3;

/** The spam kinds and their own fields (a Rule of src/domain/rules.ts adds its id and action). */
export type SpamRuleFields =
  | { kind: 'duplicate'; within: number; distance: number }
  | { kind: 'burst'; by: (typeof BURST_BY)[number]; count: number; minutes: number }
  | { kind: 'link_only' }
  | { kind: 'account'; bot: boolean; minAgeDays?: number };

/** A rule of any kind, as far as this module reads it. */
interface AnyRule {
  id: string;
  kind: string;
}
type Named<K extends SpamRuleFields['kind']> = Extract<SpamRuleFields, { kind: K }> & { id: string };
export type DuplicateRule = Named<'duplicate'>;
export type BurstRule = Named<'burst'>;
export type AccountRule = Named<'account'>;
/** The rules that need the wall's recent posts: judged where the posts are written, not in the parse workers. */
export type HistoryRule = DuplicateRule | BurstRule;

export const HISTORY_KINDS: readonly string[] = ['duplicate', 'burst'];
export const isHistoryRule = <R extends AnyRule>(rule: R): rule is R & HistoryRule => HISTORY_KINDS.includes(rule.kind);

const MINUTE = 60_000;
const DAY = 86_400_000;

// ---------- one post: links, link-only ----------

const ANCHOR = /<a\b([^>]*)>([\s\S]*?)<\/a\s*>/gi;
const HREF = /\bhref\s*=\s*"([^"]*)"/i;
const BARE_URL = /\b(?:https?:\/\/|www\.)[^\s<>"]+/gi;
const TAG_OR_MENTION = /(^|[^\p{L}\p{N}_])[#@][\p{L}\p{N}_][\p{L}\p{N}_.@-]*/gu;

/** A link as a burst counts it: host (lower case, no `www.`) and path (no trailing `/`), no query or fragment. */
export function linkKey(href: string): string | null {
  let url: URL;
  try {
    url = new URL(/^www\./i.test(href) ? `https://${href}` : href.replace(/&amp;/g, '&'));
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  const host = url.hostname.replace(/^www\./, '');
  const path = url.pathname.replace(/\/+$/, '');
  return host + path;
}

/** An anchor's text starts with `#` or `@`: a hashtag or a mention, not a link to a page. */
const isTagOrMention = (anchorText: string) => /^\s*[#@]/.test(ruleText(anchorText));

/**
 * The links of a post's stored HTML, each once, in order: every `<a href>`
 * that is not a hashtag or a mention, and bare URLs in its text.
 */
export function linksOf(html: string): string[] {
  const out = new Set<string>();
  const rest = html.replace(ANCHOR, (_, attrs: string, inner: string) => {
    const href = HREF.exec(attrs)?.[1];
    if (href !== undefined && !isTagOrMention(inner)) {
      const key = linkKey(href);
      if (key !== null) out.add(key);
    }
    return ' ';
  });
  for (const m of ruleText(rest).matchAll(BARE_URL)) {
    const key = linkKey(m[0]);
    if (key !== null) out.add(key);
  }
  return [...out];
}

/**
 * Whether a post's text is nothing but links, hashtags and mentions (and
 * punctuation, emoji, spaces): at least one of them, and not one letter or
 * digit besides. A post with no text at all is not link-only.
 */
export function isLinkOnly(html: string): boolean {
  let found = false;
  const mark = () => {
    found = true;
    return ' ';
  };
  const text = ruleText(html.replace(ANCHOR, mark))
    .replace(BARE_URL, mark)
    .replace(TAG_OR_MENTION, (_, before: string) => `${mark()}${before}`);
  return found && !/[\p{L}\p{N}]/u.test(text);
}

// ---------- one post: its account ----------

/** What the `account` rule reads of a post. */
export interface AccountFacts {
  /** upstream flags the author a bot (Mastodon `bot`, Lemmy `bot_account`) */
  authorBot: boolean;
  /** when the author's account was made (epoch ms), where the network says; null otherwise */
  authorCreatedAt: number | null;
  /** when the post was made (epoch ms) */
  createdAt: number | null;
}

/** What an `account` rule found in a post (`bot`, `new account (3 days)`), or null: it does not match. */
export function accountFinding(rule: Pick<AccountRule, 'bot' | 'minAgeDays'>, post: AccountFacts): string | null {
  if (rule.bot && post.authorBot) return 'bot';
  if (rule.minAgeDays !== undefined && post.authorCreatedAt !== null && post.createdAt !== null) {
    const age = post.createdAt - post.authorCreatedAt;
    if (age < rule.minAgeDays * DAY) {
      const days = Math.max(0, Math.floor(age / DAY));
      return `new account (${days} day${days === 1 ? '' : 's'})`;
    }
  }
  return null;
}

// ---------- the wall's history: duplicate, burst ----------

/** A post as the history rules see it. */
export interface HistoryPost {
  /** its stored id; for a post not written yet, any number that tells it apart (the store's index in its batch) */
  key: number;
  /** created time, epoch ms: the order, with `key` after it, is the caller's */
  createdAt: number;
  /** its text's SimHash ('' too short to compare: see simhash) */
  hash: string;
  /** its author: network, handle and name (lower case), or '' when the post names none */
  author: string;
  /** the author as shown in a decision (`@ana@m.example`) */
  authorLabel: string;
  /** its links (linksOf); empty unless a `burst` rule by link asks (HistoryJudge.needsLinks) */
  links: readonly string[];
}

/** A post's facts for the history rules, from its stored columns. */
export function historyPost(
  key: number,
  p: { created_at: number; content: string; username: string; author_name: string; network_name: string },
  hash: string | null,
  withLinks: boolean,
): HistoryPost {
  const handle = p.username.trim().replace(/^@/, '');
  const name = p.author_name.trim();
  // the handle and the name: a feed's handle is its site, shared by all its writers
  const author = handle === '' && name === '' ? '' : `${p.network_name}\n${handle}\n${name}`.toLowerCase();
  return {
    key,
    createdAt: p.created_at,
    hash: hash ?? textHash(p.content),
    author,
    authorLabel: handle !== '' ? `@${handle}` : name,
    links: withLinks ? linksOf(p.content) : [],
  };
}

/** The SimHash of a post's stored HTML ('' when too short to compare). */
export function textHash(html: string): string {
  return simhash(ruleText(html));
}

/** What a history rule found: the detail, and for a duplicate the earlier post it repeats. */
export interface HistoryFinding<R extends AnyRule = AnyRule> {
  rule: R & HistoryRule;
  /** the rule's position in the wall's list */
  index: number;
  detail: DecisionDetail;
  /** duplicate: the key of the earlier post (the detail's label is its id once it has one) */
  repeats: number | null;
}

interface Kept {
  post: HistoryPost;
  halves: [number, number] | null;
}

/**
 * Judges posts by the wall's `duplicate` and `burst` rules. Feed it the
 * wall's posts in order (created time, then id) with `add`; `judge` a post
 * before adding it. It keeps only what the widest window needs.
 */
export class HistoryJudge<R extends AnyRule = AnyRule> {
  readonly rules: readonly { rule: R & HistoryRule; index: number }[];
  /** how far back the rules look, ms */
  readonly windowMs: number;
  /** a burst rule counts links: posts must carry theirs */
  readonly needsLinks: boolean;
  /** how far back the link bursts look, ms: older posts need not carry their links */
  readonly linkWindowMs: number;
  private readonly kept: Kept[] = [];
  private head = 0;
  // per burst rule: author or link → created times in the window, oldest first
  private readonly seen = new Map<number, Map<string, number[]>>();

  constructor(rules: readonly R[]) {
    this.rules = rules.flatMap((rule, index) => (isHistoryRule(rule) ? [{ rule, index }] : []));
    this.windowMs = Math.max(
      0,
      ...this.rules.map(({ rule }) => (rule.kind === 'duplicate' ? rule.within : rule.minutes) * MINUTE),
    );
    this.linkWindowMs = Math.max(
      0,
      ...this.rules.map(({ rule }) => (rule.kind === 'burst' && rule.by === 'link' ? rule.minutes * MINUTE : 0)),
    );
    this.needsLinks = this.linkWindowMs > 0;
    for (const { index } of this.rules) this.seen.set(index, new Map());
  }

  get active(): boolean {
    return this.rules.length > 0;
  }

  /** Adds a post after those added before (it must not be earlier). */
  add(post: HistoryPost): void {
    this.kept.push({ post, halves: post.hash === '' ? null : hashHalves(post.hash) });
    for (const { rule, index } of this.rules) {
      if (rule.kind !== 'burst') continue;
      const byKey = this.seen.get(index)!;
      for (const key of burstKeys(rule, post)) {
        const times = byKey.get(key);
        if (times) times.push(post.createdAt);
        else byKey.set(key, [post.createdAt]);
      }
    }
    // what no rule can look back to any more goes (posts come in created order)
    const oldest = post.createdAt - this.windowMs;
    while (this.head < this.kept.length && this.kept[this.head]!.post.createdAt <= oldest) this.head++;
    if (this.head > 1024 && this.head * 2 > this.kept.length) {
      this.kept.splice(0, this.head);
      this.head = 0;
    }
  }

  /**
   * The first history rule, of those placed before `before` in the wall's
   * list, that matches `post` given the posts added so far; null when none.
   */
  judge(post: HistoryPost, before: number = Infinity): HistoryFinding<R> | null {
    for (const { rule, index } of this.rules) {
      if (index >= before) break;
      const found = rule.kind === 'duplicate' ? this.duplicate(rule, index, post) : this.burst(rule, index, post);
      if (found) return found;
    }
    return null;
  }

  private duplicate(rule: R & DuplicateRule, index: number, post: HistoryPost): HistoryFinding<R> | null {
    if (post.hash === '') return null;
    const mine = hashHalves(post.hash);
    const since = post.createdAt - rule.within * MINUTE;
    for (let i = this.head; i < this.kept.length; i++) {
      const k = this.kept[i]!;
      if (k.halves === null || k.post.createdAt <= since) continue;
      const distance = hammingHalves(mine, k.halves);
      if (distance <= rule.distance) {
        return {
          rule,
          index,
          repeats: k.post.key,
          detail: {
            rule: rule.id,
            kind: 'duplicate',
            label: String(k.post.key),
            score: distance,
            threshold: rule.distance,
            model: SIMHASH_MODEL,
          },
        };
      }
    }
    return null;
  }

  private burst(rule: R & BurstRule, index: number, post: HistoryPost): HistoryFinding<R> | null {
    const byKey = this.seen.get(index)!;
    const since = post.createdAt - rule.minutes * MINUTE;
    for (const key of burstKeys(rule, post)) {
      const times = byKey.get(key);
      let count = 1; // the post itself
      if (times) {
        while (times.length > 0 && times[0]! <= since) times.shift();
        if (times.length === 0) byKey.delete(key);
        count += times.length;
      }
      if (count >= rule.count) {
        return {
          rule,
          index,
          repeats: null,
          detail: {
            rule: rule.id,
            kind: 'burst',
            label: rule.by === 'author' ? post.authorLabel : key,
            score: count,
            threshold: rule.count,
            model: null,
          },
        };
      }
    }
    return null;
  }
}

function burstKeys(rule: BurstRule, post: HistoryPost): readonly string[] {
  if (rule.by === 'link') return post.links;
  return post.author === '' ? [] : [post.author];
}
