// Rights in words, as the console shows them: a post's state ("Rights
// granted"), whether it is held off its wall, the filter's choices, the
// walls' requirement and asking rule with a line on each, and a step of the
// evidence trail.
import type { Post } from '../../api/client';
import type { RightsEvent } from '../../api/queries/rights';

export type RightsState = NonNullable<Post['rights']['state']>;

export const RIGHTS_WORDS: Record<RightsState, string> = {
  requested: 'Rights requested',
  granted: 'Rights granted',
  declined: 'Rights declined',
  expired: 'Request expired',
  revoked: 'Rights revoked',
};

/** The badge's colours: waiting, good, bad. */
export const RIGHTS_TONE: Record<RightsState, string> = {
  requested: 'badge-info',
  granted: 'badge-ok',
  declined: 'badge-bad',
  expired: 'badge',
  revoked: 'badge-bad',
};

export const HELD_WORDS = 'Held: needs rights';

/** The posts lists' rights filter ('' : any). */
export const RIGHTS_FILTERS = [
  ['', 'Any'],
  ['none', 'Not asked'],
  ['requested', 'Requested'],
  ['granted', 'Granted'],
  ['declined', 'Declined'],
  ['expired', 'Expired'],
  ['revoked', 'Revoked'],
  ['held', 'Held: needs rights'],
] as const;
export type RightsFilter = (typeof RIGHTS_FILTERS)[number][0];

export const REQUIRED_CHOICES = [
  ['none', 'None: show posts without asking'],
  ['shoppable', 'Shoppable posts: a post tagged with products waits for a grant'],
  ['all', 'All posts: every post from a feed waits for a grant'],
] as const;

export const AUTO_CHOICES = [
  ['off', 'Off: ask only when a moderator does'],
  ['approved', 'Approved posts: ask the author of each approved post by a reply'],
  ['shoppable', 'Shoppable posts: ask when a post is approved and tagged with products'],
] as const;

const EVENT_WORDS: Record<RightsEvent['kind'], string> = {
  requested: 'Asked',
  granted: 'Granted',
  declined: 'Declined',
  expired: 'Expired: no answer in time',
  revoked: 'Revoked',
  answer_edited: 'The answer was edited',
  recorded: 'Answer recorded by hand',
};

const ACTOR_WORDS: Record<string, string> = {
  reply: 'the author',
  rule: 'the wall’s asking rule',
  watcher: 'Wallery',
  cli: 'the command line',
};

/** "Granted · by the author", "Answer recorded by hand (granted) · by pia" */
export function eventTitle(e: RightsEvent): string {
  const what =
    e.kind === 'recorded' && e.state ? `${EVENT_WORDS.recorded} (${e.state})` : (EVENT_WORDS[e.kind] ?? e.kind);
  return `${what} · by ${ACTOR_WORDS[e.actor] ?? e.actor}`;
}

/** "by a reply on Mastodon", "by hand" */
export const methodWords = (method: 'reply' | 'manual' | null, network: string): string =>
  method === 'reply' ? `by a reply on ${network}` : method === 'manual' ? 'by hand' : '';
