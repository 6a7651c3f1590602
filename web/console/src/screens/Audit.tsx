// The audit log: every management write, newest first, paged; filtered by
// account, target type and id, actor (the token's name) and action.
import { useState } from 'react';
import { useAccounts } from '../api/queries/accounts';
import { NO_AUDIT_FILTERS, useAuditLog, type AuditFilters } from '../api/queries/audit';
import { rowsOf } from '../api/queries/paging';
import type { AuditEntry } from '../api/records';
import { byName, Options, SelectField, TextField } from '../ui/fields';
import { onSubmit, useForm } from '../ui/form';
import { Button, DataTable, QueryRows, ScreenTitle, ShowMore, When } from '../ui/kit';
import './Audit.css';

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
] as const satisfies readonly (readonly [AuditFilters['targetType'], string])[];

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
  const [filters, setFilters] = useState<AuditFilters>(NO_AUDIT_FILTERS);
  const entries = useAuditLog(filters);
  const { form: draft, field, setForm: setDraft } = useForm<AuditFilters>(NO_AUDIT_FILTERS, entries.error);
  const list = rowsOf(entries.data);
  const apply = onSubmit(() => setFilters(draft));
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
        <SelectField label="Account" {...field('accountId')}>
          <option value="">All accounts</option>
          <Options of={byName(accounts)} />
        </SelectField>
        <SelectField label="Target type" {...field('targetType')}>
          <option value="">Any target</option>
          <Options of={TARGET_TYPES} />
        </SelectField>
        <TextField label="Target id" inputMode="numeric" {...field('targetId')} />
        <TextField label="Actor (token name)" {...field('tokenName')} />
        <TextField label="Action" placeholder="e.g. wall.update" {...field('action')} />
        <div className="form-actions">
          <Button type="submit" variant="primary">
            Apply filters
          </Button>
          <Button
            onClick={() => {
              setDraft(NO_AUDIT_FILTERS);
              setFilters(NO_AUDIT_FILTERS);
            }}
          >
            Clear filters
          </Button>
        </div>
      </form>
      <QueryRows query={entries} what="the audit log" rows={list} empty="No entries match these filters.">
        <DataTable
          className="grid-table audit"
          caption="Audit log entries, newest first"
          columns={['When', 'Actor', 'Action', 'Target', 'Account', 'Changes']}
        >
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
        </DataTable>
      </QueryRows>
      <ShowMore query={entries}>Show older entries</ShowMore>
    </section>
  );
}
