// The audit log: every management write, newest first, filtered by action,
// target and token; a token limited to accounts sees only theirs.
import { useInfiniteQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { api, unwrap } from '../api/client';
import type { paths } from '../api/schema';
import { Button, Empty, ErrorNote, Loading, ScreenTitle, When } from '../ui/kit';

type AuditQuery = NonNullable<paths['/audit']['get']['parameters']['query']>;
type TargetType = NonNullable<AuditQuery['targetType']>;
const TARGETS: TargetType[] = [
  'wall',
  'feed',
  'post',
  'product',
  'account',
  'user_key',
  'publishable_key',
  'operator_token',
];

/** The fields an entry changed, in a few words. */
function changed(summary: { before?: unknown; after?: unknown }): string {
  const keys = new Set([
    ...Object.keys((summary.before as object | null) ?? {}),
    ...Object.keys((summary.after as object | null) ?? {}),
  ]);
  return [...keys].slice(0, 6).join(', ') + (keys.size > 6 ? ', …' : '');
}

export function Audit() {
  const [action, setAction] = useState('');
  const [targetType, setTargetType] = useState<'' | TargetType>('');
  const [tokenName, setTokenName] = useState('');
  const [filters, setFilters] = useState<AuditQuery>({});
  // typed filters wait for a pause in typing
  useEffect(() => {
    const t = setTimeout(() => {
      const next: AuditQuery = {};
      if (/^[a-zA-Z_.]{1,100}$/.test(action.trim())) next.action = action.trim();
      if (targetType) next.targetType = targetType;
      if (tokenName.trim()) next.tokenName = tokenName.trim();
      setFilters(next);
    }, 300);
    return () => clearTimeout(t);
  }, [action, targetType, tokenName]);
  const log = useInfiniteQuery({
    queryKey: ['audit', filters],
    queryFn: ({ pageParam }) =>
      unwrap(
        api.GET('/audit', {
          params: { query: { ...filters, limit: '100', ...(pageParam ? { cursor: pageParam } : {}) } },
        }),
      ),
    initialPageParam: '',
    getNextPageParam: (page) => page.nextCursor ?? undefined,
  });
  const entries = log.data?.pages.flatMap((p) => p.data) ?? [];
  return (
    <section className="screen">
      <ScreenTitle>Audit log</ScreenTitle>
      <form className="filters" role="search" aria-label="Filter the audit log" onSubmit={(e) => e.preventDefault()}>
        <label>
          Action
          <input value={action} onChange={(e) => setAction(e.target.value)} placeholder="e.g. wall.update" />
        </label>
        <label>
          Target
          <select value={targetType} onChange={(e) => setTargetType(e.target.value as '' | TargetType)}>
            <option value="">Any</option>
            {TARGETS.map((t) => (
              <option key={t} value={t}>
                {t.replace('_', ' ')}
              </option>
            ))}
          </select>
        </label>
        <label>
          Token
          <input value={tokenName} onChange={(e) => setTokenName(e.target.value)} placeholder="name, or cli" />
        </label>
      </form>
      {log.isPending && <Loading what="the audit log" />}
      <ErrorNote error={log.error} title="The audit log could not be loaded" />
      {log.isSuccess && entries.length === 0 && (
        <Empty>
          <p>No entries match.</p>
        </Empty>
      )}
      {entries.length > 0 && (
        <table className="walls audit">
          <caption className="sr-only">Audit log entries, newest first</caption>
          <thead>
            <tr>
              <th scope="col">When</th>
              <th scope="col">Who</th>
              <th scope="col">Action</th>
              <th scope="col">Target</th>
              <th scope="col">Changed</th>
            </tr>
          </thead>
          <tbody>
            {entries.map((e) => (
              <tr key={e.id} data-audit-id={e.id}>
                <td data-label="When">
                  <When iso={e.at} />
                </td>
                <td data-label="Who">{e.tokenName}</td>
                <th scope="row" data-label="Action">
                  {e.action}
                </th>
                <td data-label="Target">
                  {e.targetType.replace('_', ' ')} {e.targetId ?? ''}
                  {e.accountId !== null && <span className="sub">account {e.accountId}</span>}
                </td>
                <td data-label="Changed">{changed(e.summary)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {log.hasNextPage && (
        <Button onClick={() => void log.fetchNextPage()} disabled={log.isFetchingNextPage}>
          Show older entries
        </Button>
      )}
    </section>
  );
}
