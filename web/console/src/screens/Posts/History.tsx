// A post's history from the audit log: every change made to it — its own,
// and the bulk actions of the queue that included it — newest first, in
// words, with who made it and when.
import { usePostHistory } from '../../api/queries/audit';
import { rowsOf } from '../../api/queries/paging';
import { QueryRows, ShowMore, When } from '../../ui/kit';
import { textBlocks } from '../../ui/text';
import { actorOf, describeEntry } from './history';

/** A post's HTML as one line of text, its blocks apart. */
const oneLine = (html: string) =>
  textBlocks(html)
    .map((b) => b.text)
    .join(' · ');

export function History({ postId }: { postId: number }) {
  const history = usePostHistory(postId);
  const entries = rowsOf(history.data);
  return (
    <section className="panel post-history" aria-labelledby="history-title">
      <h2 id="history-title">History</h2>
      <QueryRows
        query={history}
        what="the history"
        rows={entries}
        empty="No changes yet: nobody has moderated or edited this post in the console, the API or the command line."
      >
        <ol className="history">
          {entries.map((e) => {
            const item = describeEntry(e, postId, oneLine);
            return (
              <li key={e.id} data-audit-id={e.id}>
                <p className="history-what">{item.title}</p>
                <p className="history-who">
                  <When iso={e.at} /> · by {actorOf(e.tokenName)}
                </p>
                {item.lines.map((line, i) => (
                  <p key={i} className="history-line">
                    {line}
                  </p>
                ))}
              </li>
            );
          })}
        </ol>
      </QueryRows>
      <ShowMore query={history}>Show older changes</ShowMore>
    </section>
  );
}
