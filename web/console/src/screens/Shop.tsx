// The posts of a wall that can carry products (those with a picture), newest
// first, each with its tagged products and the way to the hotspot editor.
import { type Post } from '../api/client';
import { rowsOf } from '../api/queries/paging';
import { usePostsWithPictures } from '../api/queries/posts';
import { useMe } from '../auth';
import { href } from '../router';
import { QueryRows, ShowMore } from '../ui/kit';
import { WallHead } from '../ui/WallNav';
import { copiesNote, Picture } from '../ui/Picture';
import './Shop.css';

/** The picture a hotspot sits on: the post's main picture (the original, as C5 gives it). */
export const pictureOf = (post: Pick<Post, 'picture' | 'file' | 'fileThumb' | 'children'>): string =>
  post.picture || post.file || post.fileThumb || post.children.find((c) => c.image)?.image || '';

/** The same picture as shown: Wallery's copy first, then the original. */
const shownPictures = (post: Post) =>
  [post.copies.pictures.find((p) => p.slot === 'item:0' && p.url)?.url, pictureOf(post)].filter(
    (u): u is string => !!u,
  );

export function Shop({ wallId }: { wallId: number }) {
  const canTag = useMe().can('POST /walls/{wallId}/posts/{postId}/products');
  const posts = usePostsWithPictures(wallId);
  const list = rowsOf(posts.data).filter((p) => pictureOf(p));
  return (
    <section className="screen">
      <WallHead wallId={wallId} screen="shop" />
      <p className="muted">
        Choose a post to place products on its picture: what the commerce API (C5) then returns with the post.
      </p>
      <QueryRows query={posts} what="posts" rows={list} empty="This wall has no posts with a picture yet.">
        <ul className="shop-posts">
          {list.map((post) => (
            <li key={post.id} data-post-id={post.id} className="shop-post">
              <Picture
                sources={shownPictures(post)}
                alt={post.alt || `Photo by ${post.authorName || post.username}`}
                fallback={<div className="shop-post-none">No picture</div>}
              />
              <div className="shop-post-body">
                <p className="sub">
                  #{post.id} · {post.authorName || post.username} · {post.networkName} · {post.state}
                  {post.hidden ? ' · hidden' : ''}
                </p>
                {copiesNote(post.copies) && (
                  <p>
                    <span className={`badge badge-${copiesNote(post.copies)!.tone}`}>
                      {copiesNote(post.copies)!.text}
                    </span>
                  </p>
                )}
                <p>
                  {post.products.length === 0
                    ? 'No products'
                    : `${post.products.length} ${post.products.length === 1 ? 'product' : 'products'}: ${post.products
                        .map((t) => t.productName)
                        .join(', ')}`}
                </p>
                <a className="btn btn-secondary" href={href.hotspots(wallId, post.id)}>
                  {canTag ? 'Tag products' : 'See products'}
                  <span className="sr-only"> on post {post.id}</span>
                </a>
              </div>
            </li>
          ))}
        </ul>
      </QueryRows>
      <ShowMore query={posts}>Show more posts</ShowMore>
    </section>
  );
}
