// The webhooks of an account: each endpoint with its events, its state in
// words (failing: the last error and the next attempt) and its last success;
// create and rotate — the signing secret is shown this once, with a Copy
// button —, edit, enable/disable, send a test (its attempt shown), delete
// after a confirmation; and an endpoint's delivery log, paged, with Replay.
import { useEffect, useRef, useState } from 'react';
import { useChosenAccount } from '../../api/queries/accounts';
import { isOff, useRefreshWebhooks, useTestWebhook, useToggleWebhook, useWebhooks } from '../../api/queries/webhooks';
import type { Delivery, Webhook } from '../../api/records';
import { useMe } from '../../auth';
import { href } from '../../router';
import { AccountScreenHead } from '../../ui/AccountPicker';
import { SecretOnce } from '../../ui/Copy';
import { Button, DataTable, DialogFor, Empty, ErrorNote, QueryRows, When } from '../../ui/kit';
import { DeliveryLog } from './DeliveryLog';
import { AttemptSummary, HookState } from './HookState';
import { DeleteWebhook, RotateSecret } from './ConfirmDialogs';
import { WebhookForm } from './WebhookForm';
import './Webhooks.css';

// the signing secret must be readable by Wallery to sign, so it is kept (encrypted when configured), never shown
const SECRET_NOTE =
  'Copy it now into your receiver, which checks each delivery’s Wallery-Signature with it: the console cannot show it again (Rotate secret makes a new one).';

type Dialogs =
  | { kind: 'form'; hook?: Webhook } // a new webhook, or `hook` edited
  | { kind: 'secret'; title: string; secret: string }
  | { kind: 'rotate'; hook: Webhook }
  | { kind: 'delete'; hook: Webhook }
  | { kind: 'tested'; hook: Webhook; attempt: Delivery }
  | null;

export function Webhooks({ accountId, webhookId }: { accountId: number | null; webhookId: number | null }) {
  const me = useMe();
  const chosen = useChosenAccount(accountId);
  const { account } = chosen;
  const hooks = useWebhooks(account?.id);
  const [dialog, setDialog] = useState<Dialogs>(null);
  const [said, setSaid] = useState('');
  const headingRef = useRef<HTMLHeadingElement>(null);
  // After a delete, focus goes to the list's heading: in an effect of this screen, which React runs after
  // the dialog's own (a child's effects run first), so the dialog's close — which hands focus back to the
  // row's Delete button, about to disappear — can never come after it, however the frames fall.
  const [deleted, setDeleted] = useState(0);
  useEffect(() => {
    if (deleted > 0) headingRef.current?.focus();
  }, [deleted]);
  const refresh = useRefreshWebhooks(account?.id);
  const list = hooks.data?.data ?? [];
  const shown = webhookId === null ? undefined : list.find((h) => h.id === webhookId);
  const mayWrite = me.can('PATCH /webhooks/{webhookId}');

  const toggle = useToggleWebhook(account?.id, {
    onSuccess: (hook) => setSaid(`Webhook to ${hook.url} ${isOff(hook) ? 'disabled' : 'enabled'}.`),
  });
  const test = useTestWebhook(account?.id, {
    onSuccess: (attempt, hook) => setDialog({ kind: 'tested', hook, attempt }),
  });
  const close = () => setDialog(null);
  const onDeleted = (hook: Webhook, message?: string) => {
    close();
    if (!message) return;
    setSaid(message);
    if (webhookId === hook.id) location.hash = href.webhooks(account?.id);
    // the row and its button are going: focus goes to the list's heading, not to the page's top
    setDeleted((n) => n + 1);
  };

  return (
    <section className="screen">
      <AccountScreenHead title="Webhooks" chosen={chosen} link={href.webhooks} said={said}>
        {account && <Button onClick={() => void refresh(true)}>Refresh</Button>}
      </AccountScreenHead>

      {account && (
        <section className="panel" aria-labelledby="hooks-title">
          <div className="screen-head">
            <h2 id="hooks-title" ref={headingRef} tabIndex={-1}>
              Endpoints
            </h2>
            {me.can('POST /webhooks') && (
              <Button variant="primary" onClick={() => setDialog({ kind: 'form' })}>
                New webhook
              </Button>
            )}
          </div>
          <p className="hint">
            Wallery POSTs each event of this account’s walls to the URL, signed in <code>Wallery-Signature</code> (see{' '}
            <a href="../guide/guides/webhooks-and-change-feed">the guide</a>), in order, retried with backoff for up to
            3 days.
          </p>
          <ErrorNote error={toggle.error} title="The webhook was not changed" />
          <ErrorNote error={test.error} title="The test was not sent" />
          <QueryRows query={hooks} what="webhooks" rows={list} empty="No webhooks for this account yet.">
            <DataTable
              className="grid-table webhooks"
              caption={`Webhooks of ${account.name}`}
              columns={['URL', 'Events', 'State', 'Last success', 'Actions']}
            >
              {list.map((h) => (
                <tr key={h.id} data-webhook-id={h.id}>
                  <th scope="row" className="mono hook-url">
                    {h.url}
                  </th>
                  <td data-label="Events">
                    <ul className="event-list">
                      {h.events.map((e) => (
                        <li key={e} className="mono">
                          {e}
                        </li>
                      ))}
                    </ul>
                  </td>
                  <td data-label="State">
                    <HookState hook={h} />
                  </td>
                  <td data-label="Last success">
                    <When iso={h.lastSuccessAt} />
                  </td>
                  <td>
                    <div className="actions">
                      <a className="btn btn-secondary" href={href.webhooks(account.id, h.id)}>
                        Delivery log<span className="sr-only"> of {h.url}</span>
                      </a>
                      {mayWrite && (
                        <>
                          {/* not disabled while pending: a disabled button drops the focus the dialogs return to */}
                          <Button onClick={() => !test.isPending && test.mutate(h)}>
                            Send test<span className="sr-only"> to {h.url}</span>
                          </Button>
                          <Button onClick={() => setDialog({ kind: 'form', hook: h })}>
                            Edit<span className="sr-only"> {h.url}</span>
                          </Button>
                          <Button onClick={() => !toggle.isPending && toggle.mutate(h)}>
                            {isOff(h) ? 'Enable' : 'Disable'}
                            <span className="sr-only"> {h.url}</span>
                          </Button>
                          <Button onClick={() => setDialog({ kind: 'rotate', hook: h })}>
                            Rotate secret<span className="sr-only"> of {h.url}</span>
                          </Button>
                          <Button variant="danger" onClick={() => setDialog({ kind: 'delete', hook: h })}>
                            Delete<span className="sr-only"> {h.url}</span>
                          </Button>
                        </>
                      )}
                    </div>
                  </td>
                </tr>
              ))}
            </DataTable>
          </QueryRows>
        </section>
      )}

      {account && webhookId !== null && hooks.isSuccess && !shown && (
        <Empty>There is no webhook {webhookId} in this account.</Empty>
      )}
      {account && shown && (
        <DeliveryLog
          key={shown.id}
          hook={shown}
          accountId={account.id}
          mayReplay={me.can('POST /webhooks/{webhookId}/deliveries/{deliveryId}/replay')}
        />
      )}

      <DialogFor
        state={dialog}
        kind="form"
        title={({ hook }) => (hook ? 'Edit webhook' : 'New webhook')}
        onClose={close}
      >
        {({ hook }) =>
          account && (
            <WebhookForm
              accountId={account.id}
              hook={hook}
              onDone={(result) => {
                if (!result) return close();
                if ('secret' in result) {
                  setSaid(`Webhook to ${result.url} made.`);
                  setDialog({ kind: 'secret', title: 'New webhook', secret: result.secret });
                } else {
                  setSaid(`Webhook to ${result.url} saved.`);
                  close();
                }
              }}
            />
          )
        }
      </DialogFor>
      <DialogFor state={dialog} kind="secret" title={({ title }) => title} onClose={close}>
        {({ secret }) => (
          <>
            <SecretOnce label="Signing secret" secret={secret} note={SECRET_NOTE} />
            <div className="form-actions">
              <Button onClick={close}>Done</Button>
            </div>
          </>
        )}
      </DialogFor>
      <DialogFor state={dialog} kind="rotate" title="Rotate secret" onClose={close}>
        {({ hook }) => (
          <RotateSecret
            hook={hook}
            onDone={(made) => {
              if (!made) return close();
              setSaid(`New secret made for ${made.url}.`);
              setDialog({ kind: 'secret', title: 'New signing secret', secret: made.secret });
            }}
          />
        )}
      </DialogFor>
      <DialogFor state={dialog} kind="delete" title="Delete webhook" onClose={close}>
        {({ hook }) => <DeleteWebhook hook={hook} onDone={(message) => onDeleted(hook, message)} />}
      </DialogFor>
      <DialogFor state={dialog} kind="tested" title="Test event sent" onClose={close}>
        {({ hook, attempt }) => (
          <>
            <p>
              A signed <code>webhook.test</code> event went to <span className="mono hook-url">{hook.url}</span>:
            </p>
            <AttemptSummary attempt={attempt} />
            <div className="form-actions">
              <Button onClick={close}>Done</Button>
            </div>
          </>
        )}
      </DialogFor>
    </section>
  );
}
