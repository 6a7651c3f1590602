// Who posted, where and when: the two lines above a post's text in the
// queue's cards, the posts browser's rows and the post editor's view.
import type { ReactNode } from 'react';
import type { Post } from '../api/client';
import { When } from './kit';
import { copyUrl, Picture } from './Picture';

/** The name a post is shown under. */
export const authorOf = (post: Pick<Post, 'authorName' | 'username'>) =>
  post.authorName || post.username || 'unknown author';

/** The author (avatar, name, handle), then network · feed · date (`when`: relative for a week by default). */
export function PostByline({ post, when }: { post: Post; when?: ReactNode }) {
  const avatars = [copyUrl(post.copies, 'avatar'), post.userPicture].filter((u): u is string => !!u);
  return (
    <>
      <p className="post-meta">
        <Picture sources={avatars} alt="" className="avatar" />
        <strong>{authorOf(post)}</strong>
        {post.username && post.authorName && <span className="muted"> @{post.username}</span>}
      </p>
      <p className="post-where">
        {post.networkName} · {post.feedName} · {when ?? <When iso={post.createdAt} />}
        {post.media === 'video' && ' · video'}
      </p>
    </>
  );
}
