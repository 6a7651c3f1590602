// What an automatic rule found when it decided (the decision's `detail`):
// its label, score against the rule's threshold, and the model that measured
// it. Generic over every rule kind: a kind that measures nothing shows only
// what it has.
import type { Post } from '../api/client';

type Detail = NonNullable<NonNullable<Post['decision']>['detail']>;

/** A score as read: two decimals (0.9134 → 0.91), counts whole. */
const shown = (n: number) => (Number.isInteger(n) ? String(n) : n.toFixed(2));

export function DecisionDetail({ detail }: { detail: Detail }) {
  const rows: [string, string][] = [];
  if (detail.label !== null) rows.push(['Found', detail.label]);
  if (detail.score !== null) rows.push(['Score', shown(detail.score)]);
  if (detail.threshold !== null) rows.push(['Rule’s threshold', shown(detail.threshold)]);
  if (detail.model !== null) rows.push(['Measured by', detail.model]);
  if (rows.length === 0) return null;
  return (
    <dl className="decision-detail" aria-label={`What the ${detail.kind} rule ${detail.rule} found`}>
      {rows.map(([term, value]) => (
        <div key={term}>
          <dt>{term}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}
