// What is set on a post, in badges: its state, hidden, pinned, highlighted,
// a call to action, its rights (requested, granted…; held until granted).
import type { Post } from '../../api/client';
import { RightsBadge } from '../Rights/RightsBadge';

export const STATE_WORDS: Record<Post['state'], string> = {
  approved: 'approved',
  pending: 'waiting for approval',
  rejected: 'rejected',
};

export function PostBadges({ post }: { post: Post }) {
  return (
    <p className="post-state">
      <span className={`badge state-${post.state}`}>{STATE_WORDS[post.state]}</span>
      {post.hidden && <span className="badge badge-warn">hidden</span>}
      {post.pinned && <span className="badge">pinned</span>}
      {post.highlighted && <span className="badge badge-feature">highlighted</span>}
      {post.cta && <span className="badge">call to action: {post.cta.text}</span>}
      <RightsBadge rights={post.rights} />
    </p>
  );
}
