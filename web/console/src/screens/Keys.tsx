// Keys and usage of an account: calls per day for the last 30 days and the
// quota left today; the account's user keys (for the public API) and its
// walls' publishable keys (for the embed): create — the secret is shown this
// once, with a Copy button — and revoke after a confirmation.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent, type ReactNode } from 'react';
import { api, ApiError, unwrap } from '../api/client';
import type { NewPublishableKey, NewUserKey, PublishableKey, UserKey } from '../api/records';
import { useMe } from '../auth';
import { href } from '../router';
import { AccountPicker, useAccounts, useChosenAccount } from '../ui/AccountPicker';
import { SecretOnce } from '../ui/Copy';
import {
  Announce,
  Button,
  ConfirmDanger,
  Dialog,
  Empty,
  ErrorNote,
  Loading,
  ScreenTitle,
  SelectField,
  TextAreaField,
  When,
} from '../ui/kit';
import { UsageChart } from '../ui/UsageChart';
import { useWalls } from './Walls';
import './phase2.css';

type Revoking = { kind: 'user'; key: UserKey } | { kind: 'publishable'; key: PublishableKey } | null;

export function usePublishableKeys(wallId: number | undefined) {
  return useQuery({
    queryKey: ['publishable-keys', wallId ?? 0],
    enabled: wallId !== undefined,
    queryFn: () =>
      unwrap(
        api.GET('/walls/{wallId}/publishable-keys', {
          params: { path: { wallId: String(wallId) }, query: { limit: '200' } },
        }),
      ),
  });
}

export function Keys({ accountId }: { accountId: number | null }) {
  const me = useMe();
  const accountsQuery = useAccounts();
  const { account, accounts } = useChosenAccount(accountId);
  const id = account ? String(account.id) : '';
  const usage = useQuery({
    queryKey: ['usage', id],
    enabled: account !== undefined,
    queryFn: () => unwrap(api.GET('/accounts/{accountId}/usage', { params: { path: { accountId: id } } })),
  });
  const keys = useQuery({
    queryKey: ['user-keys', id],
    enabled: account !== undefined,
    queryFn: () =>
      unwrap(api.GET('/accounts/{accountId}/keys', { params: { path: { accountId: id }, query: { limit: '200' } } })),
  });
  const walls = (useWalls().data?.pages.flatMap((p) => p.data) ?? []).filter(
    (w) => w.accountId === account?.id && !w.deleted,
  );
  const [wallChoice, setWallChoice] = useState('');
  const wall = walls.find((w) => String(w.id) === wallChoice) ?? walls[0];
  const pkeys = usePublishableKeys(wall?.id);
  const [fresh, setFresh] = useState<{ title: string; label: string; secret: string } | null>(null);
  const [revoking, setRevoking] = useState<Revoking>(null);
  const [makingPk, setMakingPk] = useState(false);
  const [said, setSaid] = useState('');
  const queryClient = useQueryClient();

  const createUserKey = useMutation({
    mutationFn: () => unwrap(api.POST('/accounts/{accountId}/keys', { params: { path: { accountId: id } } })),
    onSuccess: async (key: NewUserKey) => {
      setFresh({ title: 'New user key', label: 'User key', secret: key.key });
      await queryClient.invalidateQueries({ queryKey: ['user-keys', id] });
    },
  });

  const today = usage.data?.days[usage.data.days.length - 1];
  const left = usage.data && today ? Math.max(0, usage.data.dailyCallLimit - today.calls) : null;
  const userKeys = keys.data?.data ?? [];
  const pks = pkeys.data?.data ?? [];

  return (
    <section className="screen">
      <div className="screen-head">
        <ScreenTitle>Keys and usage{account ? ` · ${account.name}` : ''}</ScreenTitle>
      </div>
      <AccountPicker accounts={accounts} value={account?.id} link={href.keys} />
      <Announce message={said} />
      {accountsQuery.isPending && <Loading what="accounts" />}
      <ErrorNote error={accountsQuery.error} title="The accounts could not be loaded" />
      {accountsQuery.isSuccess && !account && <Empty>There is no such account, or this token does not see it.</Empty>}

      {account && (
        <section className="panel" aria-labelledby="usage-title">
          <div className="screen-head">
            <h2 id="usage-title">Public API calls</h2>
            <Button onClick={() => void usage.refetch()} disabled={usage.isFetching}>
              Refresh usage
            </Button>
          </div>
          {usage.isPending && <Loading what="usage" />}
          <ErrorNote error={usage.error} title="The usage could not be loaded" />
          {usage.data && today && (
            <>
              <dl className="stats">
                <div>
                  <dt>Calls today</dt>
                  <dd data-testid="calls-today">{today.calls}</dd>
                </div>
                <div>
                  <dt>Daily limit</dt>
                  <dd>{usage.data.dailyCallLimit}</dd>
                </div>
                <div>
                  <dt>Left today</dt>
                  <dd data-testid="quota-left">{left}</dd>
                </div>
              </dl>
              <UsageChart usage={usage.data} />
              <p className="hint">
                Days are UTC days; the limit is shared by all the account’s user keys. With several servers, today’s
                count can run a little ahead while another server holds calls it reserved but has not answered yet.
              </p>
            </>
          )}
        </section>
      )}

      {account && (
        <section className="panel" aria-labelledby="user-keys-title">
          <div className="screen-head">
            <h2 id="user-keys-title">User keys</h2>
            {me.can('POST /accounts/{accountId}/keys') && (
              <Button variant="primary" onClick={() => createUserKey.mutate()} disabled={createUserKey.isPending}>
                New user key
              </Button>
            )}
          </div>
          <p className="hint">For the public API (v2): server-side only, never in a web page.</p>
          <ErrorNote error={createUserKey.error} title="The key was not made" />
          {keys.isPending && <Loading what="user keys" />}
          <ErrorNote error={keys.error} title="The keys could not be loaded" />
          {keys.isSuccess && userKeys.length === 0 && <Empty>No user keys yet.</Empty>}
          {userKeys.length > 0 && (
            <KeyTable
              caption={`User keys of ${account.name}`}
              rows={userKeys.map((k) => ({
                id: k.id,
                prefix: k.prefix,
                createdAt: k.createdAt,
                revokedAt: k.revokedAt,
                extra: <When iso={k.lastUsedAt} empty="never used" />,
                revoke: me.can('DELETE /accounts/{accountId}/keys/{keyId}')
                  ? () => setRevoking({ kind: 'user', key: k })
                  : null,
              }))}
              extraTitle="Last used"
            />
          )}
        </section>
      )}

      {account && (
        <section className="panel" aria-labelledby="pk-title">
          <div className="screen-head">
            <h2 id="pk-title">Publishable keys</h2>
            {wall && me.can('POST /walls/{wallId}/publishable-keys') && (
              <Button variant="primary" onClick={() => setMakingPk(true)}>
                New publishable key
              </Button>
            )}
          </div>
          <p className="hint">
            For the embed on web pages (<code>pk_…</code>): reads one wall only. See{' '}
            <a href={href.embed(wall?.id)}>Embed</a> for the snippet.
          </p>
          {walls.length === 0 ? (
            <Empty>This account has no walls, so no publishable keys.</Empty>
          ) : (
            <SelectField label="Wall" value={wall?.id ?? ''} onChange={(e) => setWallChoice(e.target.value)}>
              {walls.map((w) => (
                <option key={w.id} value={w.id}>
                  {w.name} (#{w.id})
                </option>
              ))}
            </SelectField>
          )}
          {pkeys.isPending && wall && <Loading what="publishable keys" />}
          <ErrorNote error={pkeys.error} title="The publishable keys could not be loaded" />
          {pkeys.isSuccess && pks.length === 0 && <Empty>No publishable keys for this wall yet.</Empty>}
          {pks.length > 0 && wall && (
            <KeyTable
              caption={`Publishable keys of ${wall.name}`}
              rows={pks.map((k) => ({
                id: k.id,
                prefix: k.prefix,
                createdAt: k.createdAt,
                revokedAt: k.revokedAt,
                extra: k.origins.length === 0 ? 'any origin' : k.origins.join(', '),
                revoke: me.can('DELETE /walls/{wallId}/publishable-keys/{keyId}')
                  ? () => setRevoking({ kind: 'publishable', key: k })
                  : null,
              }))}
              extraTitle="Origins"
            />
          )}
        </section>
      )}

      <Dialog title={fresh?.title ?? ''} open={fresh !== null} onClose={() => setFresh(null)}>
        {fresh && (
          <>
            <SecretOnce label={fresh.label} secret={fresh.secret} />
            <div className="form-actions">
              <Button onClick={() => setFresh(null)}>Done</Button>
            </div>
          </>
        )}
      </Dialog>
      <Dialog title="New publishable key" open={makingPk} onClose={() => setMakingPk(false)}>
        {makingPk && wall && (
          <NewPublishableKeyForm
            wallId={wall.id}
            onDone={(key) => {
              setMakingPk(false);
              if (key) setFresh({ title: 'New publishable key', label: 'Publishable key', secret: key.key });
            }}
          />
        )}
      </Dialog>
      <Dialog title="Revoke key" open={revoking !== null} onClose={() => setRevoking(null)}>
        {revoking && (
          <RevokeKey
            revoking={revoking}
            accountId={id}
            onDone={(message) => {
              setRevoking(null);
              if (message) setSaid(message);
            }}
          />
        )}
      </Dialog>
    </section>
  );
}

interface KeyRow {
  id: number;
  prefix: string;
  createdAt: string;
  revokedAt: string | null;
  extra: ReactNode;
  revoke: (() => void) | null;
}

function KeyTable({ caption, rows, extraTitle }: { caption: string; rows: KeyRow[]; extraTitle: string }) {
  return (
    <table className="grid-table keys">
      <caption className="sr-only">{caption}</caption>
      <thead>
        <tr>
          <th scope="col">Key</th>
          <th scope="col">Made</th>
          <th scope="col">{extraTitle}</th>
          <th scope="col">State</th>
          <th scope="col">Actions</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((k) => (
          <tr key={k.id} data-key-id={k.id} data-prefix={k.prefix}>
            <th scope="row" className="mono">
              {k.prefix}…
            </th>
            <td data-label="Made">
              <When iso={k.createdAt} />
            </td>
            <td data-label={extraTitle}>{k.extra}</td>
            <td data-label="State">
              {k.revokedAt ? (
                <span className="badge badge-bad">revoked</span>
              ) : (
                <span className="badge badge-ok">active</span>
              )}
            </td>
            <td className="actions">
              {!k.revokedAt && k.revoke && (
                <Button variant="danger" onClick={k.revoke}>
                  Revoke<span className="sr-only"> key {k.prefix}</span>
                </Button>
              )}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function NewPublishableKeyForm({ wallId, onDone }: { wallId: number; onDone(key?: NewPublishableKey): void }) {
  const queryClient = useQueryClient();
  const [origins, setOrigins] = useState('');
  const create = useMutation({
    mutationFn: () => {
      const list = origins
        .split(/[\s,]+/)
        .map((o) => o.trim())
        .filter(Boolean);
      return unwrap(
        api.POST('/walls/{wallId}/publishable-keys', {
          params: { path: { wallId: String(wallId) } },
          body: list.length ? { origins: list } : {},
        }),
      );
    },
    onSuccess: async (key) => {
      await queryClient.invalidateQueries({ queryKey: ['publishable-keys', wallId] });
      onDone(key);
    },
  });
  const err = create.error instanceof ApiError ? create.error : null;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    create.mutate();
  };
  return (
    <form onSubmit={submit} noValidate>
      <ErrorNote error={create.error} title="The key was not made" />
      <TextAreaField
        label="Allowed origins"
        value={origins}
        onChange={(e) => setOrigins(e.target.value)}
        error={err?.forField('origins')}
        hint="The sites whose pages may use the key, one per line (https://shop.example). Empty: any site."
        rows={3}
      />
      <div className="form-actions">
        <Button type="submit" variant="primary" disabled={create.isPending}>
          Make key
        </Button>
        <Button onClick={() => onDone()}>Cancel</Button>
      </div>
    </form>
  );
}

function RevokeKey({
  revoking,
  accountId,
  onDone,
}: {
  revoking: Exclude<Revoking, null>;
  accountId: string;
  onDone(message?: string): void;
}) {
  const queryClient = useQueryClient();
  const revoke = useMutation<unknown>({
    mutationFn: () =>
      revoking.kind === 'user'
        ? unwrap(
            api.DELETE('/accounts/{accountId}/keys/{keyId}', {
              params: { path: { accountId, keyId: String(revoking.key.id) } },
            }),
          )
        : unwrap(
            api.DELETE('/walls/{wallId}/publishable-keys/{keyId}', {
              params: { path: { wallId: String(revoking.key.wallId), keyId: String(revoking.key.id) } },
            }),
          ),
    onSuccess: async () => {
      await queryClient.invalidateQueries({
        queryKey: revoking.kind === 'user' ? ['user-keys', accountId] : ['publishable-keys', revoking.key.wallId],
      });
      onDone(`Key ${revoking.key.prefix}… revoked.`);
    },
  });
  return (
    <ConfirmDanger
      error={revoke.error}
      errorTitle="The key was not revoked"
      action="Revoke key"
      pending={revoke.isPending}
      onConfirm={() => revoke.mutate()}
      onCancel={() => onDone()}
    >
      Revoke the {revoking.kind === 'user' ? 'user' : 'publishable'} key <code>{revoking.key.prefix}…</code>?{' '}
      {revoking.kind === 'user'
        ? 'Calls of the public API with it fail (401) from the next call on.'
        : 'Walls embedded with it stop loading (401) from the next request on.'}{' '}
      This cannot be undone.
    </ConfirmDanger>
  );
}
