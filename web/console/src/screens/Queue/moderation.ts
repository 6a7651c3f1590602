// The queue's rules about posts: what an action changes on a post (and on
// many), whether a post still belongs in a list after it, what held a post
// (in words).
import type { Post } from '../../api/client';
import type { ListState, PostChange, PostMarks, Verb } from '../../api/queries/posts';

export const STATE_NAMES: Record<ListState, string> = {
  pending: 'Pending',
  approved: 'Approved',
  rejected: 'Rejected',
  hidden: 'Hidden',
  all: 'All',
};

/** What a post looked like before an action, to put back on undo. */
export interface UndoEntry {
  label: string;
  before: PostMarks[];
}

/** Whether a post still belongs in a list of `state` after a change. */
export function belongs(post: Post, state: ListState): boolean {
  if (state === 'all') return true;
  if (state === 'hidden') return post.hidden;
  return post.state === state;
}

/** What an action changes on one post (hide and pin toggle). */
export function changeOf(verb: Verb, post: Post): PostChange {
  switch (verb) {
    case 'approve':
      return { state: 'approved' };
    case 'reject':
      return { state: 'rejected' };
    case 'hide':
      return { hidden: !post.hidden };
    case 'pin':
      return { pinned: !post.pinned };
  }
}

/** What a bulk action sets on every post (hide and pin set, they do not toggle). */
export function setBy(verb: Verb): PostChange {
  return verb === 'approve'
    ? { state: 'approved' }
    : verb === 'reject'
      ? { state: 'rejected' }
      : verb === 'hide'
        ? { hidden: true }
        : { pinned: true };
}

export const VERB_DONE: Record<Verb, string> = {
  approve: 'Approved',
  reject: 'Rejected',
  hide: 'Hidden',
  pin: 'Pinned',
};

const DONE: Record<Post['state'], string> = { pending: 'Held', rejected: 'Rejected', approved: 'Approved' };

/**
 * Why a post is where it is, in one line: `Held by rule r3 (image): image 0.91 'porn' ≥ 0.80 — nsfwjs …`.
 * An explained reason starts with its own verb (`held: …`); it is said once.
 */
export function heldBy(post: Post, rules: Map<string, string>): string | null {
  const d = post.decision;
  if (!d) return post.state === 'pending' ? 'Waiting for approval (manual moderation)' : null;
  const reason = d.reason?.replace(/^(held|rejected|approved): /, '') ?? '';
  const tail = reason ? `: ${reason}` : '';
  // a post waiting for an automatic check (`check:image`): its reason says for what
  if (d.by.startsWith('check:')) return reason ? reason[0]!.toUpperCase() + reason.slice(1) : `Waiting (${d.by})`;
  const rule = /^rule:(.+)$/.exec(d.by);
  if (rule) {
    const what = rules.get(rule[1]!);
    return `${DONE[post.state]} by rule ${rule[1]}${what ? ` (${what})` : ''}${tail}`;
  }
  return `${post.state === 'pending' ? 'Set pending' : DONE[post.state]} by ${d.by}${tail}`;
}
