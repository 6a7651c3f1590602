// One post of the queue: its media, author, network, feed and text, its
// state, its rights and what held it, and (for a moderator) selecting it and the actions.
import { memo, useState } from 'react';
import type { Post } from '../../api/client';
import type { Verb } from '../../api/queries/posts';
import { Button } from '../../ui/kit';
import { copiesNote, mainPictures, Picture } from '../../ui/Picture';
import { authorOf, PostByline } from '../../ui/PostByline';
import { PostTextBlocks } from '../../ui/PostText';
import { DecisionDetail } from '../../ui/DecisionDetail';
import { href } from '../../router';
import { RightsBadge } from '../Rights/RightsBadge';

interface CardProps {
  post: Post;
  index: number;
  current: boolean;
  selected: boolean;
  held: string | null;
  mayModerate: boolean;
  busy: boolean;
  onRun(verb: Verb, post: Post): void;
  onToggle(id: number): void;
  onFocusIndex(index: number): void;
}

/** Re-rendered only when its own props change (500 of them move on every key). */
export const PostCard = memo(function PostCard({
  post,
  index,
  current,
  selected,
  held,
  mayModerate,
  busy,
  onRun,
  onToggle,
  onFocusIndex,
}: CardProps) {
  const pictures = mainPictures(post);
  // a picture an image rule held (hold or blur) is shown blurred until a moderator reveals it
  const flagged = post.state === 'pending' && post.decision?.detail?.kind === 'image' && pictures.length > 0;
  const [revealed, setRevealed] = useState(false);
  const blurred = flagged && !revealed;
  const note = copiesNote(post.copies);
  const author = authorOf(post);
  return (
    <li>
      <article
        className={`post${current ? ' current' : ''}${selected ? ' selected' : ''}`}
        data-index={index}
        data-post-id={post.id}
        tabIndex={current ? 0 : -1}
        aria-label={`${author} on ${post.networkName}, ${post.state}${post.hidden ? ', hidden' : ''}${selected ? ', selected' : ''}`}
        aria-describedby={`post-text-${post.id}`}
        onFocus={() => onFocusIndex(index)}
      >
        <div className={`post-media-frame${blurred ? ' blurred' : ''}`} data-blurred={blurred || undefined}>
          <Picture
            sources={pictures}
            alt={blurred ? '' : post.alt || ''}
            className="post-media"
            fallback={
              <div className="post-media post-media-none">
                {post.media === 'text' && pictures.length === 0 ? 'Text' : 'No picture'}
              </div>
            }
          />
          {blurred && (
            <button type="button" className="btn reveal" onClick={() => setRevealed(true)}>
              Reveal<span className="sr-only"> the picture an image rule held</span>
            </button>
          )}
        </div>
        <div className="post-body">
          <PostByline post={post} />
          <PostTextBlocks html={post.content} max={600} id={`post-text-${post.id}`} />
          <p className="post-state">
            <span className={`badge state-${post.state}`}>{post.state}</span>
            {post.hidden && <span className="badge badge-warn">hidden</span>}
            {post.pinned && <span className="badge">pinned</span>}
            {note && <span className={`badge badge-${note.tone}`}>{note.text}</span>}
            <RightsBadge rights={post.rights} />
            {held && <span className="held">{held}</span>}
            <a href={href.post(post.wallId, post.id)} className="post-edit-link">
              Edit post<span className="sr-only"> by {author}</span>
            </a>
          </p>
          {post.decision?.detail && <DecisionDetail detail={post.decision.detail} />}
        </div>
        {mayModerate && (
          <div className="post-actions">
            <label className="select">
              <input
                type="checkbox"
                checked={selected}
                onChange={() => onToggle(post.id)}
                aria-label={`Select post by ${author}`}
              />
              Select
            </label>
            <Button
              className="btn btn-approve"
              onClick={() => onRun('approve', post)}
              disabled={busy || post.state === 'approved'}
              aria-keyshortcuts="a"
            >
              Approve
            </Button>
            <Button
              onClick={() => onRun('reject', post)}
              disabled={busy || post.state === 'rejected'}
              aria-keyshortcuts="r"
            >
              Reject
            </Button>
            <Button onClick={() => onRun('hide', post)} disabled={busy} aria-keyshortcuts="h">
              {post.hidden ? 'Unhide' : 'Hide'}
            </Button>
            <Button onClick={() => onRun('pin', post)} disabled={busy} aria-keyshortcuts="p">
              {post.pinned ? 'Unpin' : 'Pin'}
            </Button>
          </div>
        )}
      </article>
    </li>
  );
});
