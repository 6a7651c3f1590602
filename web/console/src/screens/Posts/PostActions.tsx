// What a post is on the wall, and the buttons that change it: approve or
// reject, hide or show, pin, highlight — each one call, saved at once (so
// nothing here is ever unsaved) — and its products and hotspots.
import type { Post } from '../../api/client';
import { useEditPost, type PostEdit } from '../../api/queries/posts';
import { href } from '../../router';
import { Button, ErrorNote } from '../../ui/kit';

interface Action {
  label: string;
  edit: PostEdit;
  /** what it did, read out */
  done: string;
  disabled?: boolean;
  className?: string;
}

function actionsOf(post: Post): Action[] {
  return [
    {
      label: 'Approve',
      edit: { state: 'approved' },
      done: post.hidden ? 'Approved (still hidden: show it to put it on the wall).' : 'Approved: the wall shows it.',
      disabled: post.state === 'approved',
      className: 'btn btn-approve',
    },
    {
      label: 'Reject',
      edit: { state: 'rejected' },
      done: 'Rejected: the wall no longer shows it.',
      disabled: post.state === 'rejected',
    },
    post.hidden
      ? { label: 'Show on the wall', edit: { hidden: false }, done: 'Shown on the wall again.' }
      : { label: 'Hide from the wall', edit: { hidden: true }, done: 'Hidden from the wall.' },
    post.pinned
      ? { label: 'Unpin', edit: { pinned: false }, done: 'Unpinned.' }
      : { label: 'Pin', edit: { pinned: true }, done: 'Pinned: it comes first on the wall.' },
    post.highlighted
      ? { label: 'Remove highlight', edit: { highlighted: false }, done: 'No longer highlighted.' }
      : { label: 'Highlight', edit: { highlighted: true }, done: 'Highlighted: the wall shows it featured.' },
  ];
}

export function PostActions({ post, mayEdit, say }: { post: Post; mayEdit: boolean; say(message: string): void }) {
  const edit = useEditPost(post.wallId, post.id);
  return (
    <section className="panel" aria-labelledby="post-actions-title">
      <h2 id="post-actions-title">On the wall</h2>
      <ErrorNote error={edit.error} title="The post was not changed" />
      {mayEdit && (
        <div className="post-actions-row">
          {actionsOf(post).map((a) => (
            <Button
              key={a.label}
              {...(a.className && { className: a.className })}
              disabled={edit.isPending || a.disabled}
              onClick={() => edit.mutate(a.edit, { onSuccess: () => say(a.done) })}
            >
              {a.label}
            </Button>
          ))}
        </div>
      )}
      <p>
        <a href={href.hotspots(post.wallId, post.id)}>
          Products and hotspots on this post
          {post.products.length > 0 && ` (${post.products.length} tagged)`}
        </a>
      </p>
    </section>
  );
}
