// The webhooks of an account: each endpoint with its events, its state in
// words (failing: the last error and the next attempt) and its last success;
// create and rotate — the signing secret is shown this once, with a Copy
// button —, edit, enable/disable, send a test (its attempt shown), delete
// after a confirmation; and an endpoint's delivery log, paged, with Replay.
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { api, ApiError, unwrap } from '../api/client';
import type { Delivery, NewWebhook, Webhook, WebhookEvent } from '../api/records';
import { useMe } from '../auth';
import { href } from '../router';
import { AccountPicker, useAccounts, useChosenAccount } from '../ui/AccountPicker';
import { SecretOnce } from '../ui/Copy';
import {
  Announce,
  Button,
  CheckboxField,
  ConfirmDanger,
  Dialog,
  Empty,
  ErrorNote,
  Loading,
  ScreenTitle,
  TextField,
  When,
} from '../ui/kit';
import './phase2.css';

/** Every event an endpoint can take, in the API's order (a Record: a new event fails the typecheck until named). */
const EVENT_NAMES: Record<WebhookEvent, string> = {
  'post.created': 'a post arrives visible',
  'post.approved': 'a post is approved',
  'post.rejected': 'a post is rejected',
  'post.hidden': 'a post is hidden',
  'post.deleted': 'a post is deleted',
  'wall.deleted': 'a wall is deleted',
  'feed.failing': 'a feed keeps failing',
  'feed.recovered': 'a failing feed works again',
};
const EVENTS = Object.keys(EVENT_NAMES) as WebhookEvent[];

// the signing secret must be readable by Wallery to sign, so it is kept (encrypted when configured), never shown
const SECRET_NOTE =
  'Copy it now into your receiver, which checks each delivery’s Wallery-Signature with it: the console cannot show it again (Rotate secret makes a new one).';
const PAGE = '25';
// the worker changes an endpoint's state and log on its own: both are re-read while the screen is open
const REFRESH_MS = 5_000;

/** Off: turned off by an operator (`enabled: false`), or given up on by the worker (state `disabled`). */
const isOff = (hook: Webhook) => !hook.enabled || hook.state === 'disabled';

type Dialogs =
  | { kind: 'create' }
  | { kind: 'edit'; hook: Webhook }
  | { kind: 'secret'; title: string; secret: string }
  | { kind: 'rotate'; hook: Webhook }
  | { kind: 'delete'; hook: Webhook }
  | { kind: 'tested'; hook: Webhook; attempt: Delivery }
  | null;

export function Webhooks({ accountId, webhookId }: { accountId: number | null; webhookId: number | null }) {
  const me = useMe();
  const accountsQuery = useAccounts();
  const { account, accounts } = useChosenAccount(accountId);
  const id = account ? String(account.id) : '';
  const hooks = useQuery({
    queryKey: ['webhooks', id],
    enabled: account !== undefined,
    refetchInterval: REFRESH_MS,
    queryFn: () => unwrap(api.GET('/webhooks', { params: { query: { accountId: id, limit: '200' } } })),
  });
  const [dialog, setDialog] = useState<Dialogs>(null);
  const [said, setSaid] = useState('');
  const headingRef = useRef<HTMLHeadingElement>(null);
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['webhooks', id] });
  const list = hooks.data?.data ?? [];
  const shown = webhookId === null ? undefined : list.find((h) => h.id === webhookId);
  const mayWrite = me.can('PATCH /webhooks/{webhookId}');

  const toggle = useMutation({
    mutationFn: (hook: Webhook) =>
      unwrap(
        api.PATCH('/webhooks/{webhookId}', {
          params: { path: { webhookId: String(hook.id) } },
          body: { enabled: isOff(hook) },
        }),
      ),
    onSuccess: async (hook) => {
      setSaid(`Webhook to ${hook.url} ${isOff(hook) ? 'disabled' : 'enabled'}.`);
      await refresh();
    },
  });
  const test = useMutation({
    mutationFn: (hook: Webhook) =>
      unwrap(api.POST('/webhooks/{webhookId}/test', { params: { path: { webhookId: String(hook.id) } } })),
    onSuccess: async (attempt, hook) => {
      setDialog({ kind: 'tested', hook, attempt });
      await Promise.all([refresh(), queryClient.invalidateQueries({ queryKey: ['deliveries', hook.id] })]);
    },
  });

  return (
    <section className="screen">
      <div className="screen-head">
        <ScreenTitle>Webhooks{account ? ` · ${account.name}` : ''}</ScreenTitle>
        {account && (
          <Button
            onClick={() => void Promise.all([refresh(), queryClient.invalidateQueries({ queryKey: ['deliveries'] })])}
          >
            Refresh
          </Button>
        )}
      </div>
      <AccountPicker accounts={accounts} value={account?.id} link={href.webhooks} />
      <Announce message={said} />
      {accountsQuery.isPending && <Loading what="accounts" />}
      <ErrorNote error={accountsQuery.error} title="The accounts could not be loaded" />
      {accountsQuery.isSuccess && !account && <Empty>There is no such account, or this token does not see it.</Empty>}

      {account && (
        <section className="panel" aria-labelledby="hooks-title">
          <div className="screen-head">
            <h2 id="hooks-title" ref={headingRef} tabIndex={-1}>
              Endpoints
            </h2>
            {me.can('POST /webhooks') && (
              <Button variant="primary" onClick={() => setDialog({ kind: 'create' })}>
                New webhook
              </Button>
            )}
          </div>
          <p className="hint">
            Wallery POSTs each event of this account’s walls to the URL, signed in <code>Wallery-Signature</code> (see
            the README), in order, retried with backoff for up to 3 days.
          </p>
          <ErrorNote error={toggle.error} title="The webhook was not changed" />
          <ErrorNote error={test.error} title="The test was not sent" />
          {hooks.isPending && <Loading what="webhooks" />}
          <ErrorNote error={hooks.error} title="The webhooks could not be loaded" />
          {hooks.isSuccess && list.length === 0 && <Empty>No webhooks for this account yet.</Empty>}
          {list.length > 0 && (
            <table className="grid-table webhooks">
              <caption className="sr-only">Webhooks of {account.name}</caption>
              <thead>
                <tr>
                  <th scope="col">URL</th>
                  <th scope="col">Events</th>
                  <th scope="col">State</th>
                  <th scope="col">Last success</th>
                  <th scope="col">Actions</th>
                </tr>
              </thead>
              <tbody>
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
                            <Button onClick={() => setDialog({ kind: 'edit', hook: h })}>
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
              </tbody>
            </table>
          )}
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

      <Dialog
        title={dialog?.kind === 'edit' ? 'Edit webhook' : 'New webhook'}
        open={dialog?.kind === 'create' || dialog?.kind === 'edit'}
        onClose={() => setDialog(null)}
      >
        {account && (dialog?.kind === 'create' || dialog?.kind === 'edit') && (
          <WebhookForm
            accountId={account.id}
            hook={dialog.kind === 'edit' ? dialog.hook : undefined}
            onDone={(result) => {
              if (!result) return setDialog(null);
              if ('secret' in result) {
                setSaid(`Webhook to ${result.url} made.`);
                setDialog({ kind: 'secret', title: 'New webhook', secret: result.secret });
              } else {
                setSaid(`Webhook to ${result.url} saved.`);
                setDialog(null);
              }
            }}
          />
        )}
      </Dialog>
      <Dialog
        title={dialog?.kind === 'secret' ? dialog.title : ''}
        open={dialog?.kind === 'secret'}
        onClose={() => setDialog(null)}
      >
        {dialog?.kind === 'secret' && (
          <>
            <SecretOnce label="Signing secret" secret={dialog.secret} note={SECRET_NOTE} />
            <div className="form-actions">
              <Button onClick={() => setDialog(null)}>Done</Button>
            </div>
          </>
        )}
      </Dialog>
      <Dialog title="Rotate secret" open={dialog?.kind === 'rotate'} onClose={() => setDialog(null)}>
        {dialog?.kind === 'rotate' && (
          <RotateSecret
            hook={dialog.hook}
            onDone={(made) => {
              if (!made) return setDialog(null);
              setSaid(`New secret made for ${made.url}.`);
              setDialog({ kind: 'secret', title: 'New signing secret', secret: made.secret });
            }}
          />
        )}
      </Dialog>
      <Dialog title="Delete webhook" open={dialog?.kind === 'delete'} onClose={() => setDialog(null)}>
        {dialog?.kind === 'delete' && (
          <DeleteWebhook
            hook={dialog.hook}
            onDone={(message) => {
              setDialog(null);
              if (!message) return;
              setSaid(message);
              if (webhookId === dialog.hook.id) location.hash = href.webhooks(account?.id);
              // the row and its button are gone: focus goes to the list's heading, not to the page's top
              requestAnimationFrame(() => headingRef.current?.focus());
            }}
          />
        )}
      </Dialog>
      <Dialog title="Test event sent" open={dialog?.kind === 'tested'} onClose={() => setDialog(null)}>
        {dialog?.kind === 'tested' && (
          <>
            <p>
              A signed <code>webhook.test</code> event went to <span className="mono hook-url">{dialog.hook.url}</span>:
            </p>
            <AttemptSummary attempt={dialog.attempt} />
            <div className="form-actions">
              <Button onClick={() => setDialog(null)}>Done</Button>
            </div>
          </>
        )}
      </Dialog>
    </section>
  );
}

/** active / failing (with the last error and the next attempt) / disabled, in words. */
function HookState({ hook }: { hook: Webhook }) {
  const state = isOff(hook) ? 'disabled' : hook.state;
  const badge = state === 'active' ? 'badge-ok' : state === 'failing' ? 'badge-warn' : 'badge-bad';
  return (
    <div className="hook-state">
      <span className={`badge ${badge}`} data-testid="hook-state">
        {state}
      </span>
      {state === 'failing' && (
        <span className="sub">
          {hook.consecutiveFailures} failed {hook.consecutiveFailures === 1 ? 'attempt' : 'attempts'} in a row; next
          attempt <When iso={hook.nextAttemptAt} empty="soon" />
        </span>
      )}
      {hook.state === 'disabled' && (
        <span className="sub">
          Gave up <When iso={hook.disabledAt} empty="" /> after 3 days of failures: Enable resumes from the first event
          not delivered.
        </span>
      )}
      {!hook.enabled && hook.state !== 'disabled' && <span className="sub">Turned off: no events are sent.</span>}
      {state !== 'active' && hook.lastError && (
        <span className="sub hook-error">
          Last error (<When iso={hook.lastErrorAt} />
          ): {hook.lastError}
        </span>
      )}
    </div>
  );
}

function statusBadge(status: Delivery['status']) {
  const kind = status === 'delivered' ? 'badge-ok' : status === 'failed' ? 'badge-warn' : 'badge-bad';
  return <span className={`badge ${kind}`}>{status === 'gave_up' ? 'gave up' : status}</span>;
}

function AttemptSummary({ attempt }: { attempt: Delivery }) {
  return (
    <dl className="stats attempt" data-testid="attempt">
      <div>
        <dt>Status</dt>
        <dd data-testid="attempt-status">{statusBadge(attempt.status)}</dd>
      </div>
      <div>
        <dt>HTTP code</dt>
        <dd>{attempt.httpStatus ?? '—'}</dd>
      </div>
      <div>
        <dt>Latency</dt>
        <dd>{attempt.latencyMs} ms</dd>
      </div>
      {attempt.error && (
        <div className="attempt-error">
          <dt>Error</dt>
          <dd>{attempt.error}</dd>
        </div>
      )}
    </dl>
  );
}

function WebhookForm({
  accountId,
  hook,
  onDone,
}: {
  accountId: number;
  hook: Webhook | undefined;
  onDone(result?: Webhook | NewWebhook): void;
}) {
  const queryClient = useQueryClient();
  const [url, setUrl] = useState(hook?.url ?? '');
  const [events, setEvents] = useState<WebhookEvent[]>(
    (hook?.events ?? ['post.approved']).filter((e): e is WebhookEvent => e in EVENT_NAMES),
  );
  const save = useMutation<Webhook | NewWebhook>({
    mutationFn: () =>
      hook
        ? unwrap(
            api.PATCH('/webhooks/{webhookId}', {
              params: { path: { webhookId: String(hook.id) } },
              body: { url: url.trim(), events },
            }),
          )
        : unwrap(api.POST('/webhooks', { body: { accountId, url: url.trim(), events } })),
    onSuccess: async (result) => {
      await queryClient.invalidateQueries({ queryKey: ['webhooks', String(accountId)] });
      onDone(result);
    },
  });
  const err = save.error instanceof ApiError ? save.error : null;
  const eventsError = err?.forField('events');
  const submit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate();
  };
  const flip = (event: WebhookEvent, on: boolean) =>
    setEvents((now) => EVENTS.filter((x) => (x === event ? on : now.includes(x))));
  return (
    <form onSubmit={submit} noValidate>
      <ErrorNote error={save.error} title={hook ? 'The webhook was not saved' : 'The webhook was not made'} />
      <TextField
        label="URL"
        type="url"
        inputMode="url"
        autoComplete="off"
        value={url}
        placeholder="https://hooks.example.com/wallery"
        onChange={(e) => setUrl(e.target.value)}
        error={err?.forField('url')}
        hint="Your HTTPS endpoint. Private and loopback addresses are refused unless the server allows them."
      />
      <fieldset
        className="events-field"
        aria-invalid={eventsError ? true : undefined}
        aria-describedby={eventsError ? 'events-error' : undefined}
      >
        <legend>Events</legend>
        {EVENTS.map((e) => (
          <CheckboxField
            key={e}
            label={`${e} — ${EVENT_NAMES[e]}`}
            checked={events.includes(e)}
            onChange={(x) => flip(e, x.target.checked)}
          />
        ))}
        {eventsError && (
          <p className="field-error" id="events-error">
            {eventsError}
          </p>
        )}
      </fieldset>
      <div className="form-actions">
        <Button type="submit" variant="primary" disabled={save.isPending}>
          {hook ? 'Save webhook' : 'Make webhook'}
        </Button>
        <Button onClick={() => onDone()}>Cancel</Button>
      </div>
    </form>
  );
}

function RotateSecret({ hook, onDone }: { hook: Webhook; onDone(made?: NewWebhook): void }) {
  // a secret that leaked must stop signing at once, not in 24 hours
  const [expireOldNow, setExpireOldNow] = useState(false);
  const rotate = useMutation({
    mutationFn: () =>
      unwrap(
        api.POST('/webhooks/{webhookId}/rotate-secret', {
          params: { path: { webhookId: String(hook.id) } },
          body: { expireOldNow },
        }),
      ),
    onSuccess: (made) => onDone(made),
  });
  return (
    <div>
      <p>
        Make a new signing secret for <span className="mono hook-url">{hook.url}</span>? The next deliveries are signed
        with it;{' '}
        {expireOldNow ? (
          <>the old secret signs no more: a receiver still checking with it refuses them until it has the new one.</>
        ) : (
          <>
            for 24 hours the old secret signs too (a second <code>v1</code>), so your receiver can switch without a gap.
          </>
        )}
      </p>
      <CheckboxField
        label="Stop signing with the old secret now (it leaked)"
        checked={expireOldNow}
        onChange={(e) => setExpireOldNow(e.currentTarget.checked)}
      />
      <ErrorNote error={rotate.error} title="The secret was not rotated" />
      <div className="form-actions">
        <Button variant="danger" onClick={() => rotate.mutate()} disabled={rotate.isPending}>
          Rotate secret
        </Button>
        <Button onClick={() => onDone()}>Cancel</Button>
      </div>
    </div>
  );
}

function DeleteWebhook({ hook, onDone }: { hook: Webhook; onDone(message?: string): void }) {
  const queryClient = useQueryClient();
  const remove = useMutation({
    mutationFn: () => unwrap(api.DELETE('/webhooks/{webhookId}', { params: { path: { webhookId: String(hook.id) } } })),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: ['webhooks', String(hook.accountId)] });
      onDone(`Webhook to ${hook.url} deleted.`);
    },
  });
  return (
    <ConfirmDanger
      error={remove.error}
      errorTitle="The webhook was not deleted"
      action="Delete webhook"
      pending={remove.isPending}
      onConfirm={() => remove.mutate()}
      onCancel={() => onDone()}
    >
      Delete the webhook to <span className="mono hook-url">{hook.url}</span> and its delivery log? Events from now on
      are not sent to it. This cannot be undone.
    </ConfirmDanger>
  );
}

/** Every attempt of one endpoint, newest first, 25 at a time; Replay sends an attempt's event again (same id). */
function DeliveryLog({ hook, accountId, mayReplay }: { hook: Webhook; accountId: number; mayReplay: boolean }) {
  const queryClient = useQueryClient();
  const headingRef = useRef<HTMLHeadingElement>(null);
  const [said, setSaid] = useState('');
  // opened from a row's link: keyboard and screen reader users land on the log
  useEffect(() => headingRef.current?.focus(), []);
  const log = useInfiniteQuery({
    queryKey: ['deliveries', hook.id],
    refetchInterval: REFRESH_MS,
    queryFn: ({ pageParam }) =>
      unwrap(
        api.GET('/webhooks/{webhookId}/deliveries', {
          params: {
            path: { webhookId: String(hook.id) },
            query: { limit: PAGE, ...(pageParam ? { cursor: pageParam } : {}) },
          },
        }),
      ),
    initialPageParam: '',
    getNextPageParam: (page) => page.nextCursor ?? undefined,
  });
  const replay = useMutation({
    mutationFn: (d: Delivery) =>
      unwrap(
        api.POST('/webhooks/{webhookId}/deliveries/{deliveryId}/replay', {
          params: { path: { webhookId: String(hook.id), deliveryId: String(d.id) } },
        }),
      ),
    onSuccess: async (attempt) => {
      setSaid(
        `Replayed ${attempt.eventId}: ${attempt.status === 'delivered' ? 'delivered' : `${attempt.status}${attempt.error ? ` (${attempt.error})` : ''}`}.`,
      );
      await queryClient.invalidateQueries({ queryKey: ['deliveries', hook.id] });
    },
  });
  const rows = log.data?.pages.flatMap((p) => p.data) ?? [];
  return (
    <section className="panel" aria-labelledby="log-title">
      <div className="screen-head">
        <h2 id="log-title" ref={headingRef} tabIndex={-1}>
          Delivery log · <span className="mono hook-url">{hook.url}</span>
        </h2>
        <div className="actions">
          {/* never disabled: the log re-reads itself every few seconds, and a disabled button would drop focus */}
          <Button onClick={() => void log.refetch()}>Refresh log</Button>
          <a className="btn btn-secondary" href={href.webhooks(accountId)}>
            Close log
          </a>
        </div>
      </div>
      <p className="hint">
        Every attempt, newest first. An event keeps its id on every attempt and replay, so a receiver can drop what it
        already has.
      </p>
      <Announce message={said} />
      <ErrorNote error={replay.error} title="The delivery was not replayed" />
      {log.isPending && <Loading what="the delivery log" />}
      <ErrorNote error={log.error} title="The delivery log could not be loaded" />
      {log.isSuccess && rows.length === 0 && (
        <Empty>No deliveries yet: events after the webhook’s creation show here.</Empty>
      )}
      {rows.length > 0 && (
        <table className="grid-table deliveries">
          <caption className="sr-only">Delivery attempts to {hook.url}, newest first</caption>
          <thead>
            <tr>
              <th scope="col">Event</th>
              <th scope="col">Status</th>
              <th scope="col">HTTP</th>
              <th scope="col">Latency</th>
              <th scope="col">Attempt</th>
              <th scope="col">When</th>
              <th scope="col">Error</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((d) => (
              <tr key={d.id} data-delivery-id={d.id} data-event-id={d.eventId} data-status={d.status}>
                <th scope="row">
                  <span className="mono">{d.type}</span>
                  <span className="sub mono">
                    {d.eventId}
                    {d.replay ? ' · replay' : ''}
                  </span>
                </th>
                <td data-label="Status">{statusBadge(d.status)}</td>
                <td data-label="HTTP" className="num">
                  {d.httpStatus ?? '—'}
                </td>
                <td data-label="Latency" className="num">
                  {d.latencyMs} ms
                </td>
                <td data-label="Attempt" className="num">
                  {d.attempt}
                </td>
                <td data-label="When">
                  <When iso={d.at} />
                </td>
                <td data-label="Error" className="hook-error">
                  {d.error ?? '—'}
                </td>
                <td>
                  {mayReplay && (
                    <Button onClick={() => !replay.isPending && replay.mutate(d)}>
                      Replay
                      <span className="sr-only">
                        {' '}
                        {d.eventId} (attempt {d.attempt})
                      </span>
                    </Button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {log.hasNextPage && (
        <Button onClick={() => void log.fetchNextPage()} disabled={log.isFetchingNextPage}>
          Show older attempts
        </Button>
      )}
    </section>
  );
}
