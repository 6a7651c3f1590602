// The posts and products that did best in the range: the top posts with
// their numbers (and who wrote them, from the management API: a post deleted
// since shows its id alone), the top products by clicks.
import { usePostsById } from '../../api/queries/posts';
import type { WallAnalytics } from '../../api/records';
import { count, METRICS, MetricCells, type Metric } from '../../ui/AnalyticsChart';
import { DataTable } from '../../ui/kit';
import { plainText } from '../../ui/text';

/** what a post is counted by (a wall load is not a post's) */
const POST_METRICS = METRICS.filter(
  (m): m is { key: Exclude<Metric, 'wallLoads'>; label: string } => m.key !== 'wallLoads',
);
const POST_COLUMNS = [...POST_METRICS.map((m) => m.label), 'CTR'];

export function TopPosts({ report }: { report: WallAnalytics }) {
  const posts = usePostsById(
    report.wallId,
    report.topPosts.map((p) => p.postId),
  );
  return (
    <section className="panel" aria-labelledby="top-posts-title">
      <h2 id="top-posts-title">Top posts</h2>
      {report.topPosts.length === 0 ? (
        <p className="muted">No post was seen or clicked in these days.</p>
      ) : (
        <DataTable className="grid-table" columns={['Post', ...POST_COLUMNS]} numeric={POST_COLUMNS}>
          {report.topPosts.map((p, i) => {
            const post = posts[i]?.data;
            const text = post ? plainText(post.content) : '';
            return (
              <tr key={p.postId} data-post-id={p.postId}>
                <th scope="row" className="top-post">
                  #{p.postId}{' '}
                  {post && (
                    <span className="sub">
                      {post.authorName || post.username}
                      {text && ` — ${text.length > 80 ? `${text.slice(0, 79)}…` : text}`}
                    </span>
                  )}
                </th>
                <MetricCells row={p} metrics={POST_METRICS} />
              </tr>
            );
          })}
        </DataTable>
      )}
    </section>
  );
}

export function TopProducts({ products }: { products: WallAnalytics['topProducts'] }) {
  return (
    <section className="panel" aria-labelledby="top-products-title">
      <h2 id="top-products-title">Top products</h2>
      {products.length === 0 ? (
        <p className="muted">No product was clicked in these days.</p>
      ) : (
        <DataTable className="grid-table" columns={['Product', 'Clicks']} numeric={['Clicks']}>
          {products.map((p) => (
            <tr key={p.productId} data-product-id={p.productId}>
              <th scope="row">{p.name || `Product #${p.productId} (deleted)`}</th>
              <td className="num" data-label="Clicks">
                {count(p.productClicks)}
              </td>
            </tr>
          ))}
        </DataTable>
      )}
    </section>
  );
}
