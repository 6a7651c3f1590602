// A post's history in words: what each audit entry about it did (its own
// changes, and the bulk actions that included it), never the API's field or
// action names.
import type { AuditEntry } from '../../api/records';

export interface HistoryItem {
  /** what was done, e.g. "Approved", "Call to action: “Tickets” → https://…" */
  title: string;
  /** more about it: the reason, the text before and after, the other posts of a bulk action */
  lines: string[];
}

type Fields = Record<string, unknown>;
const fieldsOf = (v: unknown): Fields => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Fields) : {});

interface Cta {
  text: string;
  url: string;
}
const isCta = (v: unknown): v is Cta =>
  !!v && typeof v === 'object' && typeof (v as Cta).text === 'string' && typeof (v as Cta).url === 'string';

const STATE_DONE: Record<string, string> = {
  approved: 'Approved',
  rejected: 'Rejected',
  pending: 'Set back to waiting for approval',
};

const ctaTitle = (cta: unknown) =>
  isCta(cta) ? `Call to action: “${cta.text}” → ${cta.url}` : 'Call to action removed';

/** What one change of a field did, in words; null for fields that follow from others (the time of an edit). */
function fieldChange(field: string, value: unknown): string | null {
  switch (field) {
    case 'state':
      return STATE_DONE[String(value)] ?? 'Decision changed';
    case 'hidden':
      return value ? 'Hidden from the wall' : 'Shown on the wall again';
    case 'pinned':
      return value ? 'Pinned' : 'Unpinned';
    case 'highlighted':
      return value ? 'Highlighted' : 'No longer highlighted';
    case 'cta':
      return ctaTitle(value);
    case 'content':
      return 'Text corrected';
    case 'reason':
    case 'updatedAt':
    case 'wallId':
      return null;
    default:
      return 'Other details changed';
  }
}

const BULK_DONE: Record<string, (after: Fields) => string> = {
  approve: () => 'Approved',
  reject: () => 'Rejected',
  hide: () => 'Hidden from the wall',
  unhide: () => 'Shown on the wall again',
  pin: () => 'Pinned',
  unpin: () => 'Unpinned',
  highlight: () => 'Highlighted',
  unhighlight: () => 'No longer highlighted',
  setCta: (after) => ctaTitle(after.cta),
  clearCta: () => 'Call to action removed',
};

const TAGS_DONE: Record<string, string> = {
  set: 'Products tagged on it replaced',
  add: 'A product tagged on it',
  update: 'A product tag moved',
  remove: 'A product tag removed',
};

const reasonLine = (after: Fields) =>
  typeof after.reason === 'string' && after.reason ? [`Reason: ${after.reason}`] : [];

/**
 * An audit entry about post `postId` in words. `text` makes readable text of
 * the HTML the entry keeps of a corrected text (its first 200 characters).
 */
export function describeEntry(
  entry: AuditEntry,
  postId: number,
  text: (html: string) => string = (h) => h,
): HistoryItem {
  const summary = entry.summary as Fields;
  const before = fieldsOf(summary.before);
  const after = fieldsOf(summary.after);
  const bulk = /^posts\.bulk\.(\w+)$/.exec(entry.action);
  if (bulk) {
    const others = Array.isArray(summary.postIds) ? summary.postIds.length - 1 : 0;
    const lines = [...reasonLine(after)];
    if (others > 0) lines.push(`Together with ${others} other post${others === 1 ? '' : 's'}, in one action.`);
    if (!(String(postId) in before)) lines.push('This post already was so: nothing changed for it.');
    return { title: (BULK_DONE[bulk[1]!] ?? (() => 'Changed together with other posts'))(after), lines };
  }
  const tags = /^post\.tags\.(\w+)$/.exec(entry.action);
  if (tags) return { title: TAGS_DONE[tags[1]!] ?? 'Products tagged on it changed', lines: [] };
  if (entry.action !== 'post.update') return { title: 'Changed', lines: [] };

  const done = [...new Set(Object.keys(after).map((field) => fieldChange(field, after[field])))].filter(
    (t): t is string => t !== null,
  );
  const lines = [...reasonLine(after)];
  if (typeof before.content === 'string' && typeof after.content === 'string') {
    lines.push(`Before: ${text(before.content) || '(no text)'}`, `After: ${text(after.content) || '(no text)'}`);
  }
  return { title: done.length > 0 ? done.join(' · ') : 'Saved without a change', lines };
}

/** Who made a change, in words: the operator token's name; the command line for `cli`. */
export const actorOf = (tokenName: string) => (tokenName === 'cli' ? 'the command line' : tokenName);
