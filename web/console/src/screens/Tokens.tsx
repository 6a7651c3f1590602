// Operator tokens (unscoped admins only): list, make one (its plaintext shown
// once, with a copy button), revoke.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { api, ApiError, unwrap } from '../api/client';
import type { Role } from '../api/roles';
import { ROLES } from '../api/roles';
import { Announce, Button, ErrorNote, Loading, ScreenTitle, SelectField, TextField, When } from '../ui/kit';

const tokensKey = ['tokens'] as const;

export function Tokens() {
  const queryClient = useQueryClient();
  const tokens = useQuery({
    queryKey: tokensKey,
    queryFn: () => unwrap(api.GET('/tokens', { params: { query: { limit: '200' } } })),
  });
  const [said, setSaid] = useState('');
  const [name, setName] = useState('');
  const [role, setRole] = useState<Role>('moderator');
  const [accounts, setAccounts] = useState('');
  const [made, setMade] = useState<string | null>(null);
  const create = useMutation({
    mutationFn: () => {
      const ids = accounts
        .split(',')
        .map((a) => a.trim())
        .filter(Boolean)
        .map(Number);
      return unwrap(api.POST('/tokens', { body: { name, role, accounts: ids.length ? ids : null } }));
    },
    onSuccess: async (t) => {
      setMade(t.token);
      setName('');
      setSaid(`Token “${t.name}” made. Copy it now: it is shown only once.`);
      await queryClient.invalidateQueries({ queryKey: tokensKey });
    },
  });
  const revoke = useMutation({
    mutationFn: (id: number) => unwrap(api.DELETE('/tokens/{tokenId}', { params: { path: { tokenId: String(id) } } })),
    onSuccess: async (t) => {
      setSaid(`Token “${t.name}” revoked.`);
      await queryClient.invalidateQueries({ queryKey: tokensKey });
    },
  });
  const err = create.error instanceof ApiError ? create.error : null;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    create.mutate();
  };
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
        <TextField label="Name" value={name} onChange={(e) => setName(e.target.value)} error={err?.forField('name')} />
        <SelectField label="Role" value={role} onChange={(e) => setRole(e.target.value as Role)}>
          {ROLES.map((r) => (
            <option key={r} value={r}>
              {r}
            </option>
          ))}
        </SelectField>
        <TextField
          label="Limit to accounts (ids, comma-separated; empty: every account)"
          value={accounts}
          onChange={(e) => setAccounts(e.target.value)}
          error={err?.forField('accounts')}
        />
        <Button type="submit" variant="primary" disabled={create.isPending}>
          Make token
        </Button>
      </form>
      {tokens.isPending && <Loading what="tokens" />}
      <ErrorNote error={tokens.error} title="The tokens could not be loaded" />
      {tokens.data && (
        <table className="walls">
          <caption className="sr-only">Operator tokens</caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Role</th>
              <th scope="col">Accounts</th>
              <th scope="col">Last used</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
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
          </tbody>
        </table>
      )}
    </section>
  );
}
