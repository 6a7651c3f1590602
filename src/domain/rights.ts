// Rights management as pure rules: a post's rights state and the moves
// between states, what an author's reply means (the grant hashtag, a decline
// word), the request text made from the operator's template, whether a post
// is held off a wall that requires rights, and whether an author may be asked
// now (opt-out list, per-author and per-day limits).
//
//   (none) ──ask──▶ requested ──grant reply──▶ granted ──grant deleted / edited away──▶ revoked
//                        │  └──decline reply──▶ declined (the author is opted out)
//                        └──no answer in time──▶ expired ──ask again──▶ requested
//
// An operator may also record an answer by hand (a network Wallery cannot
// reply on, an answer by e-mail): granted, declined or revoked, with a note.

/** A post's rights state; a post never asked has none (null). */
export const RIGHTS_STATES = ['requested', 'granted', 'declined', 'expired', 'revoked'] as const;
export type RightsState = (typeof RIGHTS_STATES)[number];

/** What a wall requires before it shows a post publicly: nothing, a grant for posts tagged with products, a grant for every post. */
export const RIGHTS_REQUIREMENTS = ['none', 'shoppable', 'all'] as const;
export type RightsRequirement = (typeof RIGHTS_REQUIREMENTS)[number];

/** The wall's asking rule: never by itself, every approved post, every approved post tagged with products. */
export const RIGHTS_AUTO_REQUESTS = ['off', 'approved', 'shoppable'] as const;
export type RightsAutoRequest = (typeof RIGHTS_AUTO_REQUESTS)[number];

/** How a request was made: a reply on the network through a connection, or by hand (copied text, answer recorded). */
export const RIGHTS_METHODS = ['reply', 'manual'] as const;
export type RightsMethod = (typeof RIGHTS_METHODS)[number];

/** Who a Mastodon request reply is shown to: everyone, everyone but not on public timelines, the author only (a direct mention). */
export const MASTODON_VISIBILITIES = ['public', 'unlisted', 'direct'] as const;
export type MastodonVisibility = (typeof MASTODON_VISIBILITIES)[number];

/** The connection networks Wallery asks on by a reply (src/rights/channels/): what the settings' `connections` may name. */
export const RIGHTS_NETWORKS = ['mastodon', 'bluesky', 'pixelfed', 'x', 'threads', 'youtube', 'reddit'] as const;
export type RightsNetwork = (typeof RIGHTS_NETWORKS)[number];

/** What an evidence trail entry records. */
export const RIGHTS_EVENT_KINDS = [
  'requested',
  'granted',
  'declined',
  'expired',
  'revoked',
  /** the author edited the answer; the state follows what it now says */
  'answer_edited',
  /** an operator recorded an answer by hand */
  'recorded',
] as const;
export type RightsEventKind = (typeof RIGHTS_EVENT_KINDS)[number];

/** Why an author is on the opt-out list. */
export const OPT_OUT_REASONS = ['declined', 'blocked', 'operator'] as const;
export type OptOutReason = (typeof OPT_OUT_REASONS)[number];

/** An account's rights settings: what a request says and how often one may be sent. */
export interface RightsSettings {
  /** the request text; {author}, {hashtag}, {brand} and {terms} are filled in */
  template: string;
  /** the hashtag an author answers with to grant, without `#` */
  grantHashtag: string;
  /** words (or hashtags) a reply declines with, when it holds no grant hashtag */
  declineWords: string[];
  /** the brand's name as the template says it */
  brand: string;
  /** where the terms are read; '' when the template holds them */
  termsUrl: string;
  mastodonVisibility: MastodonVisibility;
  /** most requests to one author in a day (UTC) */
  perAuthorPerDay: number;
  /** most requests the account sends in a day (UTC) */
  perDay: number;
  /** a request not answered in this many days expires */
  expireDays: number;
}

export const DEFAULT_RIGHTS_SETTINGS: RightsSettings = {
  template:
    'Hi {author}! We love this post and would like to show it on our site. Reply {hashtag} to agree to {brand} using it.{terms}',
  grantHashtag: 'YesPlease',
  declineWords: ['no', 'no thanks', '#NoThanks'],
  brand: 'us',
  termsUrl: '',
  mastodonVisibility: 'public',
  perAuthorPerDay: 1,
  perDay: 50,
  expireDays: 14,
};

export const DAY_MS = 86_400_000;

/** The start (UTC midnight) of the day `at` falls in: the window the daily limits count in. */
export const dayStart = (at: number): number => at - (at % DAY_MS);

/** How an author is known across posts for the limits and the opt-out list: the network and the handle, folded. */
export function authorKey(network: string, username: string): string {
  return `${network.trim().toLowerCase()}:${username.trim().replace(/^@/, '').toLowerCase()}`;
}

/** The request text: the template with its fields filled in. */
export function requestText(settings: RightsSettings, post: { username: string; authorName: string }): string {
  const handle = post.username.trim().replace(/^@/, '');
  const fields: Record<string, string> = {
    // a handle that can be mentioned (`ana`, `ana@harbor.social`, `ana.bsky.social`) gets its @; `u/ana` or a channel's title stays as it is
    author: handle === '' ? post.authorName : /^[\p{L}\p{N}_.@-]+$/u.test(handle) ? `@${handle}` : handle,
    hashtag: `#${settings.grantHashtag}`,
    brand: settings.brand,
    terms: settings.termsUrl === '' ? '' : ` Terms: ${settings.termsUrl}`,
  };
  return settings.template.replace(/\{(author|hashtag|brand|terms)\}/g, (_, k: string) => fields[k]!).trim();
}

/** The problems of a template (empty: none): it must let the author know how to answer. */
export function templateProblems(settings: Pick<RightsSettings, 'template' | 'grantHashtag'>): string[] {
  const problems: string[] = [];
  if (
    !settings.template.includes('{hashtag}') &&
    !settings.template.toLowerCase().includes(`#${settings.grantHashtag.toLowerCase()}`)
  )
    problems.push('template must say how to grant: put {hashtag} (or the grant hashtag itself) in it');
  const unknown = [...settings.template.matchAll(/\{([^}]*)\}/g)]
    .map((m) => m[1])
    .filter((k) => !['author', 'hashtag', 'brand', 'terms'].includes(k!));
  if (unknown.length > 0)
    problems.push(
      `template has unknown fields: ${unknown.map((k) => `{${k}}`).join(', ')}; use {author}, {hashtag}, {brand}, {terms}`,
    );
  return problems;
}

const fold = (text: string) => text.normalize('NFKC').toLowerCase();
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Whether a plain text holds a word or phrase whole (`no` is not in `nothing`; `#nothanks` matches as a tag). */
function holds(text: string, phrase: string): boolean {
  const p = fold(phrase.trim());
  if (p === '') return false;
  return new RegExp(`(^|[^\\p{L}\\p{N}_#])${escape(p)}(?![\\p{L}\\p{N}_])`, 'u').test(text);
}

/**
 * What an author's reply (plain text) answers: `grant` when it holds the
 * grant hashtag, else `decline` when it holds a decline word, else null (not
 * an answer: a question, thanks, …). The hashtag wins because it is the
 * deliberate act the request asks for ("#YesHarbor no problem!" grants).
 */
export function answerOf(
  text: string,
  settings: Pick<RightsSettings, 'grantHashtag' | 'declineWords'>,
): 'grant' | 'decline' | null {
  const t = fold(text);
  if (holds(t, `#${settings.grantHashtag}`)) return 'grant';
  if (settings.declineWords.some((w) => holds(t, w))) return 'decline';
  return null;
}

/** The state an answer moves a post to; what a changed answer (edited, deleted) makes of a state reached by an answer. */
export function stateAfterAnswer(
  current: RightsState | null,
  answer: 'grant' | 'decline' | null | 'deleted',
): RightsState | null {
  if (answer === 'grant') return 'granted';
  if (answer === 'decline') return 'declined';
  // the answer deleted, or edited into no answer: a grant is taken back; a decline stands
  if (current === 'granted') return 'revoked';
  return current;
}

/** Whether a post in this state may be asked (again): never asked, or the last request expired unanswered. */
export const mayRequest = (state: RightsState | null): boolean => state === null || state === 'expired';

/** Whether the watcher still listens for an answer in this state (an answer may come, or change). */
export const listensInState = (state: RightsState | null): boolean => state === 'requested' || state === 'granted';

/**
 * Whether a wall that requires `requirement` keeps a post off its public
 * views: every post without a grant (`all`), a post tagged with products
 * without a grant (`shoppable`), none (`none`). The store keeps this in
 * posts.rights_hold (its SQL twin: src/store/rights.ts holdExpression).
 */
export function isHeld(requirement: RightsRequirement, state: RightsState | null, shoppable: boolean): boolean {
  if (requirement === 'none' || state === 'granted') return false;
  return requirement === 'all' || shoppable;
}

/** Why an author may not be asked now, in words; null: they may. */
export function askRefusal(facts: {
  optedOut: OptOutReason | null;
  state: RightsState | null;
  /** requests sent to this author (any post) since the start of today, UTC */
  askedAuthorToday: number;
  /** requests the account sent since the start of today, UTC */
  askedToday: number;
  settings: Pick<RightsSettings, 'perAuthorPerDay' | 'perDay'>;
}): string | null {
  if (facts.optedOut !== null)
    return facts.optedOut === 'declined'
      ? 'the author declined before and is never asked again'
      : facts.optedOut === 'blocked'
        ? 'the author blocked the brand and is never asked again'
        : 'the author is on the opt-out list';
  if (!mayRequest(facts.state)) return `rights are already ${facts.state}`;
  if (facts.askedAuthorToday >= facts.settings.perAuthorPerDay)
    return `this author was asked ${facts.askedAuthorToday} time${facts.askedAuthorToday === 1 ? '' : 's'} today (the limit is ${facts.settings.perAuthorPerDay} a day)`;
  if (facts.askedToday >= facts.settings.perDay)
    return `the account sent ${facts.askedToday} requests today (the limit is ${facts.settings.perDay} a day)`;
  return null;
}
