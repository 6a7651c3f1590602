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

export function heldBy(post: Post, rules: Map<string, string>): string | null {
  const d = post.decision;
  if (!d) return post.state === 'pending' ? 'Waiting for approval (manual moderation)' : null;
  const rule = /^rule:(.+)$/.exec(d.by);
  const reason = d.reason ? `: ${d.reason}` : '';
  if (rule) {
    const what = rules.get(rule[1]!);
    return `${post.state === 'pending' ? 'Held' : post.state === 'rejected' ? 'Rejected' : 'Approved'} by rule ${rule[1]}${what ? ` (${what})` : ''}${reason}`;
  }
  return `${post.state === 'approved' ? 'Approved' : post.state === 'rejected' ? 'Rejected' : 'Set pending'} by ${d.by} ${reason}`;
}
