// An account's connections to networks: each with its network, who it signed
// in as and its status in words ("expires in 5 days", "revoked by the user"),
// Reconnect (OAuth) and Remove; then every network and how to connect it — a
// Connect button that leaves for the network's sign-in page (full-page
// navigation; the sign-in comes back here through /connect/callback), the
// server address first for a federated network, a form for a pasted token or
// API key, and, where the operator's OAuth app is not configured, the
// settings that would give the network its Connect button.
import { useState } from 'react';
import {
  useConnections,
  useCreateConnection,
  useDeleteConnection,
  useNetworkOffers,
  useStartConnect,
  type Connection,
  type ConnectionCreate,
  type NetworkOffer,
} from '../api/queries/connections';
import { useChosenAccount } from '../api/queries/accounts';
import { useMe } from '../auth';
import { href } from '../router';
import { AccountScreenHead } from '../ui/AccountPicker';
import { FormActions, TextField } from '../ui/fields';
import { onSubmit, useForm } from '../ui/form';
import { Button, ConfirmDelete, DataTable, DialogFor, ErrorNote, NoneYet, QueryRows, QueryStatus } from '../ui/kit';
import './Connections.css';

type Pasted = NetworkOffer['pasted'][number];

/** A field's title inside a sentence: "Bearer token" → "bearer token", "API key" stays. */
const inSentence = (title: string) =>
  /^[A-Z][A-Z]/.test(title) ? title : title.charAt(0).toLowerCase() + title.slice(1);

type Dialogs =
  | { kind: 'paste'; offer: NetworkOffer; pasted: Pasted }
  | { kind: 'server'; offer: NetworkOffer }
  | { kind: 'remove'; connection: Connection }
  | null;

export function Connections({ accountId, connected }: { accountId: number | null; connected: number | null }) {
  const me = useMe();
  const chosen = useChosenAccount(accountId);
  const { account } = chosen;
  const connections = useConnections(account?.id);
  const offers = useNetworkOffers(account?.id);
  const [dialog, setDialog] = useState<Dialogs>(null);
  const [said, setSaid] = useState('');
  const list = connections.data?.data ?? [];
  const networks = offers.data ?? [];
  const titleOf = (network: string) => networks.find((n) => n.network === network)?.title ?? network;
  const mayWrite = me.can('POST /accounts/{accountId}/connect');
  const close = () => setDialog(null);
  const justConnected = connected === null ? undefined : list.find((c) => c.id === connected);

  return (
    <section className="screen">
      <AccountScreenHead title="Connections" chosen={chosen} link={href.connections} said={said} />

      {account && justConnected && (
        <div className="note note-success" role="status">
          <strong>Connected.</strong> {titleOf(justConnected.network)} as{' '}
          {justConnected.externalAccountName ?? justConnected.name}: feeds of this account can read with it now.
        </div>
      )}

      {account && (
        <section className="panel" aria-labelledby="connections-title">
          <h2 id="connections-title">Connected</h2>
          <p className="hint">
            The tokens and keys feeds read the big networks with. They are encrypted in the store and never shown again;
            a token about to expire is refreshed where the network allows it.
          </p>
          <QueryRows
            query={connections}
            what="connections"
            rows={list}
            empty={<NoneYet howToAdd="Connect a network below.">This account has no connections yet.</NoneYet>}
          >
            <DataTable
              className="grid-table connections"
              caption={`Connections of ${account.name}`}
              columns={['Name', 'Network', 'Signed in as', 'Status', 'Actions']}
            >
              {list.map((c) => (
                <ConnectionRow
                  key={c.id}
                  connection={c}
                  title={titleOf(c.network)}
                  offer={networks.find((n) => n.network === c.network)}
                  mayWrite={mayWrite}
                  onRemove={() => setDialog({ kind: 'remove', connection: c })}
                />
              ))}
            </DataTable>
          </QueryRows>
        </section>
      )}

      {account && (
        <section className="panel" aria-labelledby="connect-title">
          <h2 id="connect-title">Connect a network</h2>
          <QueryStatus query={offers} what="networks" />
          <ul className="network-offers">
            {networks.map((offer) => (
              <OfferItem
                key={offer.network}
                offer={offer}
                accountId={account.id}
                mayWrite={mayWrite}
                onPaste={(pasted) => setDialog({ kind: 'paste', offer, pasted })}
                onServer={() => setDialog({ kind: 'server', offer })}
              />
            ))}
          </ul>
        </section>
      )}

      <DialogFor
        state={dialog}
        kind="paste"
        title={({ offer, pasted }) => `${offer.title}: ${pasted.title}`}
        onClose={close}
      >
        {({ offer, pasted }) =>
          account && (
            <PastedForm
              accountId={account.id}
              offer={offer}
              pasted={pasted}
              onDone={(made) => {
                if (made) setSaid(`${offer.title} connection “${made.name}” stored.`);
                close();
              }}
            />
          )
        }
      </DialogFor>
      <DialogFor state={dialog} kind="server" title={({ offer }) => `Connect ${offer.title}`} onClose={close}>
        {({ offer }) => account && <ServerForm accountId={account.id} offer={offer} onCancel={close} />}
      </DialogFor>
      <DialogFor state={dialog} kind="remove" title="Remove connection" onClose={close}>
        {({ connection }) => (
          <RemoveConnection
            connection={connection}
            title={titleOf(connection.network)}
            onDone={(message) => {
              if (message) setSaid(message);
              close();
            }}
          />
        )}
      </DialogFor>
    </section>
  );
}

/** A connection's status as words: statusText, and what the network said when it refused. */
function StatusWords({ connection }: { connection: Connection }) {
  const state = connection.status === 'active' ? 'ok' : connection.status === 'failing' ? 'warn' : 'bad';
  return (
    <div className={`conn-status conn-${state}`}>
      <span className="conn-status-text">{connection.statusText}</span>
      {connection.status !== 'active' && connection.statusDetail && (
        <span className="conn-status-detail">{connection.statusDetail}</span>
      )}
    </div>
  );
}

function ConnectionRow({
  connection: c,
  title,
  offer,
  mayWrite,
  onRemove,
}: {
  connection: Connection;
  title: string;
  offer: NetworkOffer | undefined;
  mayWrite: boolean;
  onRemove(): void;
}) {
  const start = useStartConnect(c.accountId);
  // an OAuth connection signs in again; a pasted one is replaced by pasting again (Remove, then add)
  const mayReconnect = mayWrite && c.authKind === 'oauth' && offer?.oauth != null;
  return (
    <tr data-connection-id={c.id}>
      <th scope="row">{c.name}</th>
      <td data-label="Network">
        {title}
        {c.instance && <span className="mono conn-instance"> {new URL(c.instance).host}</span>}
      </td>
      <td data-label="Signed in as">{c.externalAccountName ?? <span className="muted">—</span>}</td>
      <td data-label="Status">
        <StatusWords connection={c} />
      </td>
      <td>
        <div className="actions">
          {mayReconnect && (
            <Button
              onClick={() =>
                !start.isPending &&
                start.mutate({
                  network: c.network,
                  connectionId: c.id,
                  ...(c.instance ? { instance: c.instance } : {}),
                })
              }
            >
              Reconnect<span className="sr-only"> {c.name}</span>
            </Button>
          )}
          {mayWrite && (
            <Button variant="danger" onClick={onRemove}>
              Remove<span className="sr-only"> {c.name}</span>
            </Button>
          )}
        </div>
        <ErrorNote error={start.error} title="The sign-in did not start" />
      </td>
    </tr>
  );
}

function OfferItem({
  offer,
  accountId,
  mayWrite,
  onPaste,
  onServer,
}: {
  offer: NetworkOffer;
  accountId: number;
  mayWrite: boolean;
  onPaste(pasted: Pasted): void;
  onServer(): void;
}) {
  const start = useStartConnect(accountId);
  return (
    <li className="network-offer" data-network={offer.network}>
      <div className="offer-head">
        <h3>{offer.title}</h3>
        <a href={`../guide${offer.docs}`}>
          What you need<span className="sr-only"> for {offer.title}</span>
        </a>
      </div>
      {mayWrite && (
        <div className="actions">
          {offer.oauth === 'app' && (
            <Button variant="primary" onClick={() => !start.isPending && start.mutate({ network: offer.network })}>
              Connect {offer.title}
            </Button>
          )}
          {offer.oauth === 'instance' && (
            <Button variant="primary" onClick={onServer}>
              Connect {offer.title}
            </Button>
          )}
          {offer.pasted.map((p) => (
            <Button key={p.kind} onClick={() => onPaste(p)}>
              Add {inSentence(p.title)}
              <span className="sr-only"> for {offer.title}</span>
            </Button>
          ))}
        </div>
      )}
      {offer.oauthSettings && (
        <p className="hint">
          Its Connect button needs your app: set <span className="mono">{offer.oauthSettings}</span> (see{' '}
          <a href="../guide/guides/connections-oauth">Connecting networks with OAuth</a>).
        </p>
      )}
      <ErrorNote error={start.error} title="The sign-in did not start" />
    </li>
  );
}

/** A federated network's sign-in: the server first (Wallery registers itself there), then its sign-in page. */
function ServerForm({ accountId, offer, onCancel }: { accountId: number; offer: NetworkOffer; onCancel(): void }) {
  const start = useStartConnect(accountId);
  const { form, field } = useForm({ instance: '' }, start.error);
  const submit = onSubmit(() => start.mutate({ network: offer.network, instance: form.instance.trim() }));
  return (
    <form onSubmit={submit} noValidate>
      <ErrorNote error={start.error} title="The sign-in did not start" />
      <TextField
        label="Server"
        type="url"
        inputMode="url"
        autoComplete="off"
        placeholder="https://pixelfed.social"
        {...field('instance')}
        hint={`The ${offer.title} server the account is on. You sign in there and come back here.`}
      />
      <FormActions submit="Continue to sign in" pending={start.isPending} onCancel={onCancel} />
    </form>
  );
}

/** A pasted token or API key: the fields the network asks for, and a name. */
function PastedForm({
  accountId,
  offer,
  pasted,
  onDone,
}: {
  accountId: number;
  offer: NetworkOffer;
  pasted: Pasted;
  onDone(made?: Connection): void;
}) {
  const create = useCreateConnection(accountId, { onSuccess: (made) => onDone(made) });
  const initial: Record<string, string> = { name: `${offer.title} ${inSentence(pasted.title)}` };
  for (const f of pasted.fields) initial[f.key] = '';
  const { form, field } = useForm(initial, create.error);
  const submit = onSubmit(() => {
    const body: Record<string, string> = { network: offer.network, name: form.name!.trim(), authKind: pasted.kind };
    for (const f of pasted.fields) if (form[f.key]!.trim() !== '') body[f.key] = form[f.key]!.trim();
    create.mutate(body as unknown as ConnectionCreate);
  });
  return (
    <form onSubmit={submit} noValidate>
      <ErrorNote error={create.error} title="The connection was not stored" />
      <TextField label="Name" autoComplete="off" {...field('name')} hint="What this console calls it." />
      {pasted.fields.map((f) => (
        <TextField
          key={f.key}
          label={f.label}
          type={f.secret ? 'password' : f.key === 'instance' ? 'url' : 'text'}
          autoComplete="off"
          spellCheck={false}
          required={f.required}
          {...field(f.key)}
          hint={f.hint}
        />
      ))}
      <FormActions submit="Store connection" pending={create.isPending} onCancel={() => onDone()} />
    </form>
  );
}

function RemoveConnection({
  connection,
  title,
  onDone,
}: {
  connection: Connection;
  title: string;
  onDone(message?: string): void;
}) {
  const remove = useDeleteConnection(connection, {
    onSuccess: () => onDone(`${title} connection “${connection.name}” removed.`),
  });
  const feeds = connection.usedBy.length;
  return (
    <ConfirmDelete thing="connection" mutation={remove} onCancel={() => onDone()}>
      Remove “{connection.name}” ({title})? Its token is deleted from this instance
      {feeds > 0 ? `, and the ${feeds === 1 ? 'feed' : `${feeds} feeds`} reading with it stop until given another` : ''}
      . Access stays granted on {title} until you take it back there.
    </ConfirmDelete>
  );
}
