// The audit log: every management write, newest first, paged; filtered by
// account, target type and id, actor (the token's name) and action.
import { useInfiniteQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { api, ApiError, unwrap } from '../api/client';
import type { AuditEntry, AuditQuery } from '../api/records';
import { useAccounts } from '../ui/AccountPicker';
import { Button, Empty, ErrorNote, Loading, ScreenTitle, SelectField, TextField, When } from '../ui/kit';
import './phase2.css';

const TARGET_TYPES = [
  ['wall', 'Walls'],
  ['feed', 'Feeds'],
  ['post', 'Posts'],
  ['product', 'Products'],
  ['account', 'Accounts'],
  ['user_key', 'User keys'],
  ['publishable_key', 'Publishable keys'],
  ['operator_token', 'Operator tokens'],
  ['webhook', 'Webhooks'],
] as const;
type TargetType = (typeof TARGET_TYPES)[number][0];

interface Filters {
  accountId: string;
  targetType: '' | TargetType;
  targetId: string;
  tokenName: string;
  action: string;
}
const NONE: Filters = { accountId: '', targetType: '', targetId: '', tokenName: '', action: '' };
const PAGE = '25';

function queryOf(f: Filters): AuditQuery {
  const q: AuditQuery = { limit: PAGE };
  if (f.accountId) q.accountId = f.accountId;
  if (f.targetType) q.targetType = f.targetType;
  if (f.targetId.trim()) q.targetId = f.targetId.trim();
  if (f.tokenName.trim()) q.tokenName = f.tokenName.trim();
  if (f.action.trim()) q.action = f.action.trim();
  return q;
}

const show = (v: unknown) => (v === undefined ? '' : typeof v === 'string' ? v : JSON.stringify(v));

/** "name: old → new" for each field the entry changed; details of the action after them. */
function changes(entry: AuditEntry): string[] {
  const { before, after, ...details } = entry.summary as { before?: unknown; after?: unknown };
  if (Array.isArray(before) || Array.isArray(after)) {
    const lines = [`${show(before ?? [])} → ${show(after ?? [])}`];
    for (const [k, v] of Object.entries(details)) lines.push(`${k}: ${show(v)}`);
    return lines;
  }
  const b = (before && typeof before === 'object' ? before : {}) as Record<string, unknown>;
  const a = (after && typeof after === 'object' ? after : {}) as Record<string, unknown>;
  const fields = [...new Set([...Object.keys(b), ...Object.keys(a)])];
  const lines = fields.map((k) =>
    k in b && k in a
      ? `${k}: ${show(b[k])} → ${show(a[k])}`
      : k in a
        ? `${k}: ${show(a[k])}`
        : `${k} was ${show(b[k])}`,
  );
  for (const [k, v] of Object.entries(details)) lines.push(`${k}: ${show(v)}`);
  return lines;
}

export function Audit() {
  const accounts = useAccounts().data?.data ?? [];
  const [draft, setDraft] = useState<Filters>(NONE);
  const [filters, setFilters] = useState<Filters>(NONE);
  const entries = useInfiniteQuery({
    queryKey: ['audit', filters],
    queryFn: ({ pageParam }) =>
      unwrap(
        api.GET('/audit', { params: { query: { ...queryOf(filters), ...(pageParam ? { cursor: pageParam } : {}) } } }),
      ),
    initialPageParam: '',
    getNextPageParam: (page) => page.nextCursor ?? undefined,
  });
  const list = entries.data?.pages.flatMap((p) => p.data) ?? [];
  const err = entries.error instanceof ApiError ? entries.error : null;
  const apply = (e: FormEvent) => {
    e.preventDefault();
    setFilters(draft);
  };
  const accountName = (id: number | null) =>
    id === null ? '—' : (accounts.find((a) => a.id === id)?.name ?? `account ${id}`);

  return (
    <section className="screen">
      <div className="screen-head">
        <ScreenTitle>Audit log</ScreenTitle>
        <Button onClick={() => void entries.refetch()} disabled={entries.isFetching}>
          Refresh
        </Button>
      </div>
      <form className="filters audit-filters" onSubmit={apply} aria-label="Filter the audit log" noValidate>
        <SelectField
          label="Account"
          value={draft.accountId}
          onChange={(e) => setDraft({ ...draft, accountId: e.target.value })}
          error={err?.forField('accountId')}
        >
          <option value="">All accounts</option>
          {accounts.map((a) => (
            <option key={a.id} value={a.id}>
              {a.name} (#{a.id})
            </option>
          ))}
        </SelectField>
        <SelectField
          label="Target type"
          value={draft.targetType}
          onChange={(e) => setDraft({ ...draft, targetType: e.target.value as Filters['targetType'] })}
          error={err?.forField('targetType')}
        >
          <option value="">Any target</option>
          {TARGET_TYPES.map(([v, label]) => (
            <option key={v} value={v}>
              {label}
            </option>
          ))}
        </SelectField>
        <TextField
          label="Target id"
          inputMode="numeric"
          value={draft.targetId}
          onChange={(e) => setDraft({ ...draft, targetId: e.target.value })}
          error={err?.forField('targetId')}
        />
        <TextField
          label="Actor (token name)"
          value={draft.tokenName}
          onChange={(e) => setDraft({ ...draft, tokenName: e.target.value })}
          error={err?.forField('tokenName')}
        />
        <TextField
          label="Action"
          value={draft.action}
          placeholder="e.g. wall.update"
          onChange={(e) => setDraft({ ...draft, action: e.target.value })}
          error={err?.forField('action')}
        />
        <div className="form-actions">
          <Button type="submit" variant="primary">
            Apply filters
          </Button>
          <Button
            onClick={() => {
              setDraft(NONE);
              setFilters(NONE);
            }}
          >
            Clear filters
          </Button>
        </div>
      </form>
      {entries.isPending && <Loading what="the audit log" />}
      <ErrorNote error={entries.error} title="The audit log could not be loaded" />
      {entries.isSuccess && list.length === 0 && <Empty>No entries match these filters.</Empty>}
      {list.length > 0 && (
        <table className="grid-table audit">
          <caption className="sr-only">Audit log entries, newest first</caption>
          <thead>
            <tr>
              <th scope="col">When</th>
              <th scope="col">Actor</th>
              <th scope="col">Action</th>
              <th scope="col">Target</th>
              <th scope="col">Account</th>
              <th scope="col">Changes</th>
            </tr>
          </thead>
          <tbody>
            {list.map((e) => {
              const lines = changes(e);
              return (
                <tr key={e.id} data-audit-id={e.id} data-action={e.action}>
                  <td data-label="When">
                    <When iso={e.at} />
                  </td>
                  <td data-label="Actor">{e.tokenName}</td>
                  <th scope="row" data-label="Action" className="mono">
                    {e.action}
                  </th>
                  <td data-label="Target">
                    {e.targetType.replace('_', ' ')} {e.targetId !== null ? `#${e.targetId}` : ''}
                  </td>
                  <td data-label="Account">{accountName(e.accountId)}</td>
                  <td data-label="Changes" className="changes">
                    {lines.length === 0 ? (
                      '—'
                    ) : (
                      <ul>
                        {lines.slice(0, 4).map((l, i) => (
                          <li key={i}>{l.length > 120 ? `${l.slice(0, 119)}…` : l}</li>
                        ))}
                        {lines.length > 4 && <li>and {lines.length - 4} more</li>}
                      </ul>
                    )}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
      {entries.hasNextPage && (
        <Button onClick={() => void entries.fetchNextPage()} disabled={entries.isFetchingNextPage}>
          Show older entries
        </Button>
      )}
    </section>
  );
}
