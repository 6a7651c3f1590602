// One post, edited: the post as the wall shows it (picture, author, date,
// its title and text as separate blocks), what is set on it and the buttons
// that change it (approve or reject, hide, pin, highlight), its rights
// (screens/Rights/PostRights.tsx), its call to action, its text corrected
// with a preview of what Wallery keeps, a link to its products and hotspots,
// and its history from the audit log. Edits not
// saved yet are not dropped without a question (useUnsavedGuard).
import { useState } from 'react';
import type { Post } from '../../api/client';
import { usePost } from '../../api/queries/posts';
import { useWall } from '../../api/queries/walls';
import { useMe } from '../../auth';
import { href } from '../../router';
import { Announce, ErrorNote, Loading, ScreenTitle } from '../../ui/kit';
import { mainPictures, Picture } from '../../ui/Picture';
import { PostHtml } from '../../ui/PostText';
import { dateText } from '../../ui/text';
import { heldBy } from '../Queue/moderation';
import { CtaForm } from './CtaForm';
import { History } from './History';
import { PostActions } from './PostActions';
import { PostBadges } from './PostBadges';
import { authorOf, PostByline } from '../../ui/PostByline';
import { TextForm } from './TextForm';
import { PostRightsPanel } from '../Rights/PostRights';
import './Posts.css';

const NO_RULES = new Map<string, string>();

export function PostEditor({ wallId, postId }: { wallId: number; postId: number }) {
  const me = useMe();
  const mayEdit = me.can('PATCH /walls/{wallId}/posts/{postId}');
  const wall = useWall(wallId);
  const post = usePost(wallId, postId);
  const [said, setSaid] = useState('');
  const wallName = wall.data?.name ?? `wall ${wallId}`;

  return (
    <section className="screen post-editor">
      <p className="crumbs">
        <a href={href.walls()}>Walls</a> › <a href={href.posts(wallId)}>{wallName}: posts</a> › post {postId}
      </p>
      <ScreenTitle>{post.data ? `Post by ${authorOf(post.data)}` : `Post ${postId}`}</ScreenTitle>
      <Announce message={said} />
      {post.isPending && <Loading what="the post" />}
      <ErrorNote error={post.error} title="The post could not be loaded" />
      {post.data && (
        <>
          <div className="post-editor-grid">
            <PostView post={post.data} />
            <div className="post-editor-side">
              <PostActions post={post.data} mayEdit={mayEdit} say={setSaid} />
              <PostRightsPanel post={post.data} say={setSaid} />
              {mayEdit && !wall.isPending && (
                <>
                  <CtaForm post={post.data} accent={wall.data?.branding.accent ?? null} say={setSaid} />
                  <TextForm post={post.data} say={setSaid} />
                </>
              )}
            </div>
          </div>
          <History postId={postId} />
        </>
      )}
    </section>
  );
}

/** The post as the wall shows it. */
function PostView({ post }: { post: Post }) {
  const decision = heldBy(post, NO_RULES);
  const original = /^https?:\/\//i.test(post.linkUrl) ? post.linkUrl : null;
  return (
    <article className="panel post-view" aria-labelledby={`post-view-${post.id}`}>
      <h2 id={`post-view-${post.id}`} className="sr-only">
        The post as the wall shows it
      </h2>
      <Picture
        sources={mainPictures(post)}
        alt={post.alt || ''}
        className="post-view-media"
        loading="eager"
        fallback={null}
      />
      <PostByline post={post} when={<time dateTime={post.createdAt}>{dateText(post.createdAt)}</time>} />
      <PostHtml html={post.content} className="post-view-text" />
      {post.cta && (
        <p>
          <a
            className="cta-preview"
            href={post.cta.url}
            rel="nofollow noopener noreferrer"
            target="_blank"
            style={{ background: post.cta.background, color: post.cta.color }}
          >
            {post.cta.text}
          </a>
        </p>
      )}
      <PostBadges post={post} />
      {decision && <p className="post-decision">{decision}</p>}
      {original && (
        <p>
          <a href={original} rel="noopener noreferrer" target="_blank">
            See the original post<span className="sr-only"> (opens in a new tab)</span>
          </a>
        </p>
      )}
    </article>
  );
}
