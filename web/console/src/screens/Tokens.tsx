// Operator tokens (unscoped admins only): list, make one (its plaintext shown
// once, with a copy button), revoke.
import { useState } from 'react';
import { useTokens, useTokenWrites } from '../api/queries/tokens';
import { ROLES, type Role } from '../api/roles';
import { Options, SelectField, TextField } from '../ui/fields';
import { onSubmit, useForm } from '../ui/form';
import { Announce, Button, DataTable, ErrorNote, QueryStatus, ScreenTitle, When } from '../ui/kit';

export function Tokens() {
  const tokens = useTokens();
  const [said, setSaid] = useState('');
  const [made, setMade] = useState<string | null>(null);
  const { create, revoke } = useTokenWrites({
    made: (t) => {
      setMade(t.token);
      set({ name: '' });
      setSaid(`Token “${t.name}” made. Copy it now: it is shown only once.`);
    },
    revoked: (t) => setSaid(`Token “${t.name}” revoked.`),
  });
  const { form, field, set } = useForm({ name: '', role: 'moderator' as Role, accounts: '' }, create.error);
  const submit = onSubmit(() => {
    const ids = form.accounts
      .split(',')
      .map((a) => a.trim())
      .filter(Boolean)
      .map(Number);
    create.mutate({ name: form.name, role: form.role, accounts: ids.length ? ids : null });
  });
  return (
    <section className="screen">
      <ScreenTitle>Operator tokens</ScreenTitle>
      <Announce message={said} />
      <ErrorNote error={revoke.error} title="The token was not revoked" />
      {made && (
        <div className="note" role="status">
          <p>
            The new token (shown only this once): <code data-testid="new-token">{made}</code>
          </p>
          <Button onClick={() => void navigator.clipboard?.writeText(made).then(() => setSaid('Token copied.'))}>
            Copy token
          </Button>
        </div>
      )}
      <form className="panel" onSubmit={submit} noValidate aria-labelledby="new-token-title">
        <h2 id="new-token-title">New token</h2>
        <ErrorNote error={create.error} title="The token was not made" />
        <TextField label="Name" {...field('name')} />
        <SelectField label="Role" value={form.role} onChange={(e) => set({ role: e.target.value as Role })}>
          <Options of={ROLES.map((r) => [r, r])} />
        </SelectField>
        <TextField label="Limit to accounts (ids, comma-separated; empty: every account)" {...field('accounts')} />
        <Button type="submit" variant="primary" disabled={create.isPending}>
          Make token
        </Button>
      </form>
      <QueryStatus query={tokens} what="tokens" />
      {tokens.data && (
        <DataTable
          className="walls"
          caption="Operator tokens"
          columns={['Name', 'Role', 'Accounts', 'Last used', 'Actions']}
        >
          {tokens.data.data.map((t) => (
            <tr key={t.id} data-token-id={t.id}>
              <th scope="row">
                {t.name}
                <span className="sub">{t.prefix}…</span>
              </th>
              <td data-label="Role">{t.role}</td>
              <td data-label="Accounts">{t.accounts ? t.accounts.join(', ') : 'all'}</td>
              <td data-label="Last used">
                <When iso={t.lastUsedAt} />
              </td>
              <td className="actions">
                {t.revokedAt ? (
                  <span className="badge">revoked</span>
                ) : (
                  <Button variant="danger" onClick={() => revoke.mutate(t.id)} disabled={revoke.isPending}>
                    Revoke<span className="sr-only"> {t.name}</span>
                  </Button>
                )}
              </td>
            </tr>
          ))}
        </DataTable>
      )}
    </section>
  );
}
