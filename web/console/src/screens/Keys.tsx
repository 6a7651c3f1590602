// Keys and usage of an account: calls per day for the last 30 days and the
// quota left today; the account's user keys (for the public API) and its
// walls' publishable keys (for the embed): create — the secret is shown this
// once, with a Copy button — and revoke after a confirmation.
import { useState, type ReactNode } from 'react';
import { useChosenAccount, useUsage } from '../api/queries/accounts';
import {
  useCreatePublishableKey,
  useCreateUserKey,
  usePublishableKeys,
  useRevokeKey,
  useUserKeys,
  type Revoking,
} from '../api/queries/keys';
import { useAccountWalls } from '../api/queries/walls';
import type { NewPublishableKey } from '../api/records';
import { useMe } from '../auth';
import { href } from '../router';
import { AccountScreenHead } from '../ui/AccountPicker';
import { SecretOnce } from '../ui/Copy';
import { byName, FormActions, Options, SelectField, TextAreaField } from '../ui/fields';
import { onSubmit, useForm } from '../ui/form';
import { Button, ConfirmDanger, DataTable, Dialog, Empty, ErrorNote, QueryStatus, When } from '../ui/kit';
import { UsageChart } from '../ui/UsageChart';

export function Keys({ accountId }: { accountId: number | null }) {
  const me = useMe();
  const chosen = useChosenAccount(accountId);
  const { account } = chosen;
  const id = account ? String(account.id) : '';
  const usage = useUsage(account?.id);
  const keys = useUserKeys(account?.id);
  const walls = useAccountWalls(account?.id).walls;
  const [wallChoice, setWallChoice] = useState('');
  const wall = walls.find((w) => String(w.id) === wallChoice) ?? walls[0];
  const pkeys = usePublishableKeys(wall?.id);
  const [fresh, setFresh] = useState<{ title: string; label: string; secret: string } | null>(null);
  const [revoking, setRevoking] = useState<Revoking | null>(null);
  const [makingPk, setMakingPk] = useState(false);
  const [said, setSaid] = useState('');

  const createUserKey = useCreateUserKey(account?.id, {
    onSuccess: (key) => setFresh({ title: 'New user key', label: 'User key', secret: key.key }),
  });

  const today = usage.data?.days[usage.data.days.length - 1];
  const left = usage.data && today ? Math.max(0, usage.data.dailyCallLimit - today.calls) : null;
  const userKeys = keys.data?.data ?? [];
  const pks = pkeys.data?.data ?? [];

  return (
    <section className="screen">
      <AccountScreenHead title="Keys and usage" chosen={chosen} link={href.keys} said={said} />

      {account && (
        <section className="panel" aria-labelledby="usage-title">
          <div className="screen-head">
            <h2 id="usage-title">Public API calls</h2>
            <Button onClick={() => void usage.refetch()} disabled={usage.isFetching}>
              Refresh usage
            </Button>
          </div>
          <QueryStatus query={usage} what="usage" />
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
          <QueryStatus
            query={keys}
            what="user keys"
            failed="The keys could not be loaded"
            empty={userKeys.length === 0 && 'No user keys yet.'}
          />
          {userKeys.length > 0 && (
            <KeyTable
              caption={`User keys of ${account.name}`}
              keys={userKeys}
              extraTitle="Last used"
              extra={(k) => <When iso={k.lastUsedAt} empty="never used" />}
              onRevoke={
                me.can('DELETE /accounts/{accountId}/keys/{keyId}') ? (key) => setRevoking({ kind: 'user', key }) : null
              }
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
              <Options of={byName(walls)} />
            </SelectField>
          )}
          <QueryStatus
            query={pkeys}
            active={wall !== undefined}
            what="publishable keys"
            empty={pks.length === 0 && 'No publishable keys for this wall yet.'}
          />
          {pks.length > 0 && wall && (
            <KeyTable
              caption={`Publishable keys of ${wall.name}`}
              keys={pks}
              extraTitle="Origins"
              extra={(k) => (k.origins.length === 0 ? 'any origin' : k.origins.join(', '))}
              onRevoke={
                me.can('DELETE /walls/{wallId}/publishable-keys/{keyId}')
                  ? (key) => setRevoking({ kind: 'publishable', key })
                  : null
              }
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

interface Key {
  id: number;
  prefix: string;
  createdAt: string;
  revokedAt: string | null;
}

/** Keys of one kind: `extra` fills the column named `extraTitle`; `onRevoke` is null for a token that may not. */
function KeyTable<K extends Key>({
  caption,
  keys,
  extraTitle,
  extra,
  onRevoke,
}: {
  caption: string;
  keys: K[];
  extraTitle: string;
  extra(key: K): ReactNode;
  onRevoke: ((key: K) => void) | null;
}) {
  return (
    <DataTable className="grid-table keys" caption={caption} columns={['Key', 'Made', extraTitle, 'State', 'Actions']}>
      {keys.map((k) => (
        <tr key={k.id} data-key-id={k.id} data-prefix={k.prefix}>
          <th scope="row" className="mono">
            {k.prefix}…
          </th>
          <td data-label="Made">
            <When iso={k.createdAt} />
          </td>
          <td data-label={extraTitle}>{extra(k)}</td>
          <td data-label="State">
            {k.revokedAt ? (
              <span className="badge badge-bad">revoked</span>
            ) : (
              <span className="badge badge-ok">active</span>
            )}
          </td>
          <td className="actions">
            {!k.revokedAt && onRevoke && (
              <Button variant="danger" onClick={() => onRevoke(k)}>
                Revoke<span className="sr-only"> key {k.prefix}</span>
              </Button>
            )}
          </td>
        </tr>
      ))}
    </DataTable>
  );
}

function NewPublishableKeyForm({ wallId, onDone }: { wallId: number; onDone(key?: NewPublishableKey): void }) {
  const create = useCreatePublishableKey({ afterRefresh: (key) => onDone(key) });
  const { field, form } = useForm({ origins: '' }, create.error);
  const submit = onSubmit(() => {
    const list = form.origins
      .split(/[\s,]+/)
      .map((o) => o.trim())
      .filter(Boolean);
    create.mutate({ wallId, ...(list.length ? { origins: list } : {}) });
  });
  return (
    <form onSubmit={submit} noValidate>
      <ErrorNote error={create.error} title="The key was not made" />
      <TextAreaField
        label="Allowed origins"
        {...field('origins')}
        hint="The sites whose pages may use the key, one per line (https://shop.example). Empty: any site."
        rows={3}
      />
      <FormActions submit="Make key" pending={create.isPending} onCancel={() => onDone()} />
    </form>
  );
}

function RevokeKey({
  revoking,
  accountId,
  onDone,
}: {
  revoking: Revoking;
  accountId: string;
  onDone(message?: string): void;
}) {
  const revoke = useRevokeKey(revoking, accountId, {
    onSuccess: () => onDone(`Key ${revoking.key.prefix}… revoked.`),
  });
  return (
    <ConfirmDanger mutation={revoke} errorTitle="The key was not revoked" action="Revoke key" onCancel={() => onDone()}>
      Revoke the {revoking.kind === 'user' ? 'user' : 'publishable'} key <code>{revoking.key.prefix}…</code>?{' '}
      {revoking.kind === 'user'
        ? 'Calls of the public API with it fail (401) from the next call on.'
        : 'Walls embedded with it stop loading (401) from the next request on.'}{' '}
      This cannot be undone.
    </ConfirmDanger>
  );
}
