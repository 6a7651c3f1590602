// Making or editing a webhook: its URL and the events it takes.
import { useState } from 'react';
import { apiErrorOf } from '../../api/client';
import { fieldMessage } from '../../api/messages';
import { useSaveWebhook } from '../../api/queries/webhooks';
import type { NewWebhook, Webhook, WebhookEvent } from '../../api/records';
import { CheckboxField, FormActions, TextField } from '../../ui/fields';
import { onSubmit, useForm } from '../../ui/form';
import { ErrorNote } from '../../ui/kit';

/** Every event an endpoint can take, in the API's order (a Record: a new event fails the typecheck until named). */
const EVENT_NAMES: Record<WebhookEvent, string> = {
  'post.created': 'a post arrives visible',
  'post.approved': 'a post is approved',
  'post.rejected': 'a post is rejected',
  'post.held': 'a rule holds a post for moderation',
  'post.hidden': 'a post is hidden',
  'post.deleted': 'a post is deleted',
  'post.rights_requested': 'the rights to a post are asked for',
  'post.rights_granted': 'an author grants the rights to a post',
  'post.rights_declined': 'an author declines',
  'post.rights_expired': 'a rights request expires unanswered',
  'post.rights_revoked': 'granted rights are taken back',
  'wall.deleted': 'a wall is deleted',
  'feed.failing': 'a feed keeps failing',
  'feed.recovered': 'a failing feed works again',
  'connection.failed': 'a network refuses a connection (expired, revoked)',
  'connection.expiring': 'a connection’s token expires soon',
};
const EVENTS = Object.keys(EVENT_NAMES) as WebhookEvent[];

export function WebhookForm({
  accountId,
  hook,
  onDone,
}: {
  accountId: number;
  hook: Webhook | undefined;
  onDone(result?: Webhook | NewWebhook): void;
}) {
  const save = useSaveWebhook(accountId, hook, { onSuccess: (result) => onDone(result) });
  const { form, field } = useForm({ url: hook?.url ?? '' }, save.error);
  const [events, setEvents] = useState<WebhookEvent[]>(
    (hook?.events ?? ['post.approved']).filter((e): e is WebhookEvent => e in EVENT_NAMES),
  );
  const refused = apiErrorOf(save.error)?.forField('events');
  const eventsError = refused ? fieldMessage(refused, 'Events') : undefined;
  const submit = onSubmit(() => save.mutate({ url: form.url.trim(), events }));
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
        placeholder="https://hooks.example.com/wallery"
        {...field('url')}
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
      <FormActions submit={hook ? 'Save webhook' : 'Make webhook'} pending={save.isPending} onCancel={() => onDone()} />
    </form>
  );
}
