// The products tagged on the post, in their order (the order the commerce
// API returns them in): where each sits, and moving up or down or removing.
import type { Tag } from '../../api/records';
import { Button } from '../../ui/kit';
import { pct, type Point } from './geometry';

export function TagList({
  wallId,
  postId,
  tags,
  moving,
  canEdit,
  busy,
  onReorder,
  onRemove,
}: {
  wallId: number;
  postId: number;
  tags: Tag[];
  moving: Record<number, Point>;
  canEdit: boolean;
  busy: { reorder: boolean; remove: boolean };
  onReorder(productId: number, position: number): void;
  onRemove(productId: number): void;
}) {
  return (
    <section aria-labelledby="tags-title" className="panel">
      <h2 id="tags-title">Tagged products, in order</h2>
      {tags.length === 0 ? (
        <p>No products on this post yet.</p>
      ) : (
        <ol className="tag-list">
          {tags.map((tag, i) => {
            const at = moving[tag.productId] ?? tag;
            return (
              <li key={tag.productId} data-product-id={tag.productId}>
                <span className="tag-name">{tag.productName}</span>
                <span className="sub">
                  {pct(at.left)} from the left, {pct(at.top)} from the top
                </span>
                {canEdit && (
                  <span className="actions">
                    <Button onClick={() => onReorder(tag.productId, i - 1)} disabled={i === 0 || busy.reorder}>
                      Move up<span className="sr-only"> {tag.productName}</span>
                    </Button>
                    <Button
                      onClick={() => onReorder(tag.productId, i + 1)}
                      disabled={i === tags.length - 1 || busy.reorder}
                    >
                      Move down<span className="sr-only"> {tag.productName}</span>
                    </Button>
                    <Button variant="danger" onClick={() => onRemove(tag.productId)} disabled={busy.remove}>
                      Remove<span className="sr-only"> {tag.productName}</span>
                    </Button>
                  </span>
                )}
              </li>
            );
          })}
        </ol>
      )}
      <p className="sub">
        The commerce API returns them in this order with the post (C5,{' '}
        <code>
          getGalleryProductByID/{wallId}/{postId}/
        </code>
        ).
      </p>
    </section>
  );
}
