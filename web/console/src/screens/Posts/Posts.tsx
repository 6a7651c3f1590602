// A wall's posts, all of them: the same filters as the API (state, feed,
// network, media, words), newest first, a page at a time; each post with its
// picture, author, network, date, its title and text as separate blocks,
// what is set on it (hidden, pinned, highlighted, a call to action) and a
// link to its editor.
import { useCallback, useState } from 'react';
import type { Post } from '../../api/client';
import { useFeeds } from '../../api/queries/feeds';
import { rowsOf } from '../../api/queries/paging';
import { useBrowsePosts, type PostFilters } from '../../api/queries/posts';
import { href } from '../../router';
import { Loading, QueryRows, ShowMore } from '../../ui/kit';
import { mainPictures, Picture } from '../../ui/Picture';
import { PostTextBlocks } from '../../ui/PostText';
import { WallHead } from '../../ui/WallNav';
import { QueueFilters } from '../Queue/QueueFilters';
import { STATE_NAMES } from '../Queue/moderation';
import { PostBadges } from './PostBadges';
import { authorOf, PostByline } from '../../ui/PostByline';
import './Posts.css';

const ALL: PostFilters = { state: 'all', feedId: '', network: '', media: '', rights: '', q: '' };

export function Posts({ wallId }: { wallId: number }) {
  const [filters, setFilters] = useState<PostFilters>(ALL);
  const feeds = useFeeds(wallId);
  const posts = useBrowsePosts(wallId, filters);
  const list = rowsOf(posts.data);
  const search = useCallback((q: string) => setFilters((f) => (f.q === q ? f : { ...f, q })), []);
  const filtered = JSON.stringify(filters) !== JSON.stringify(ALL);

  return (
    <section className="screen posts-screen">
      <WallHead wallId={wallId} screen="posts" />
      <QueueFilters
        filters={filters}
        feeds={feeds.data?.data ?? []}
        list={list}
        onFilter={(change) => setFilters((f) => ({ ...f, ...change }))}
        onSearch={search}
      />
      {posts.isSuccess && (
        <p className="count" aria-live="polite">
          {countText(list.length, posts.hasNextPage, filters.state)}
        </p>
      )}
      <QueryRows
        query={posts}
        what="posts"
        rows={list}
        empty={
          filtered ? (
            <p>No posts match these filters.</p>
          ) : (
            <p>
              This wall has no posts yet. Posts arrive from its <a href={href.feeds(wallId)}>feeds</a>.
            </p>
          )
        }
      >
        <ol className="post-rows" aria-label="Posts">
          {list.map((post) => (
            <PostRow key={post.id} post={post} />
          ))}
        </ol>
      </QueryRows>
      {posts.isFetchingNextPage && <Loading what="more posts" />}
      <ShowMore query={posts}>Show more posts</ShowMore>
    </section>
  );
}

/** "100+ posts · newest first", "3 pending posts · newest first" */
function countText(loaded: number, more: boolean, state: PostFilters['state']): string {
  const which = state === 'all' ? '' : `${STATE_NAMES[state].toLowerCase()} `;
  return `${loaded}${more ? '+' : ''} ${which}post${loaded === 1 && !more ? '' : 's'} · newest first`;
}

function PostRow({ post }: { post: Post }) {
  const author = authorOf(post);
  return (
    <li className="post-row" data-post-id={post.id}>
      <Picture
        sources={mainPictures(post)}
        alt={post.alt || ''}
        className="post-row-media"
        fallback={<div className="post-row-media post-media-none">{post.media === 'text' ? 'Text' : 'No picture'}</div>}
      />
      <div className="post-row-body">
        <PostByline post={post} />
        <PostTextBlocks html={post.content} max={280} />
        <PostBadges post={post} />
      </div>
      <a className="btn btn-secondary post-row-edit" href={href.post(post.wallId, post.id)}>
        Edit<span className="sr-only"> post by {author}</span>
      </a>
    </li>
  );
}
