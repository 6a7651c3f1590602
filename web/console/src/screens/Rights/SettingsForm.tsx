// An account's rights settings as a form: the request's template with a live
// preview (filled in exactly as Wallery fills it: src/domain/rights.ts
// requestText), the grant hashtag and the decline words, the brand and the
// terms, who sees a request on Mastodon, the connection that asks on each
// network, and the daily limits and expiry.
import { useMemo, useState } from 'react';
import { requestText, templateProblems } from '../../../../../src/domain/rights.js';
import { useConnections, type Connection } from '../../api/queries/connections';
import { useRightsSettings, useSaveRightsSettings, type RightsSettings } from '../../api/queries/rights';
import { href } from '../../router';
import { Options, SelectField, TextAreaField, TextField } from '../../ui/fields';
import { onSubmit, useForm } from '../../ui/form';
import { Button, ErrorNote, QueryStatus } from '../../ui/kit';

/** The networks Wallery asks on by a reply (src/rights/service.ts CHANNELS): their connection's network and name. */
const REPLY_NETWORKS = [
  ['mastodon', 'Mastodon'],
  ['bluesky', 'Bluesky'],
  ['x', 'X'],
  ['threads', 'Threads'],
  ['youtube', 'YouTube'],
  ['reddit', 'Reddit'],
  ['pixelfed', 'Pixelfed'],
] as const;

/** The handle the preview is written to. */
const SAMPLE = { username: 'ana@harbor.social', authorName: 'Ana Lima' };

interface Form {
  template: string;
  grantHashtag: string;
  declineWords: string;
  brand: string;
  termsUrl: string;
  mastodonVisibility: string;
  perAuthorPerDay: string;
  perDay: string;
  expireDays: string;
  /** network → connection id ('' : the feed's own, else the first working one) */
  connections: Record<string, string>;
}

const formOf = (s: RightsSettings): Form => ({
  template: s.template,
  grantHashtag: s.grantHashtag,
  declineWords: s.declineWords.join(', '),
  brand: s.brand,
  termsUrl: s.termsUrl,
  mastodonVisibility: s.mastodonVisibility,
  perAuthorPerDay: String(s.perAuthorPerDay),
  perDay: String(s.perDay),
  expireDays: String(s.expireDays),
  connections: Object.fromEntries(Object.entries(s.connections).map(([n, id]) => [n, String(id)])),
});

/** A number as typed: a whole number is a number; anything else goes as typed for the API to name. */
const numberOut = (typed: string): number => (/^\s*\d{1,9}\s*$/.test(typed) ? Number(typed) : (typed as never));

const hashtagOf = (typed: string) => typed.trim().replace(/^#/, '');
const wordsOf = (typed: string) =>
  typed
    .split(',')
    .map((w) => w.trim())
    .filter((w) => w !== '');

export function RightsSettingsPanel({
  accountId,
  mayEdit,
  say,
}: {
  accountId: number;
  mayEdit: boolean;
  say(message: string): void;
}) {
  const settings = useRightsSettings(accountId);
  return (
    <section className="panel" aria-labelledby="rights-settings-title">
      <h2 id="rights-settings-title">Requests</h2>
      <QueryStatus query={settings} what="the rights settings" />
      {settings.data && (
        <SettingsForm
          // a save (or another operator's) starts the form again from what is stored
          key={JSON.stringify(settings.data)}
          accountId={accountId}
          settings={settings.data}
          mayEdit={mayEdit}
          say={say}
        />
      )}
    </section>
  );
}

function SettingsForm({
  accountId,
  settings,
  mayEdit,
  say,
}: {
  accountId: number;
  settings: RightsSettings;
  mayEdit: boolean;
  say(message: string): void;
}) {
  const save = useSaveRightsSettings(accountId, { onSuccess: () => say('Rights settings saved.') });
  const { form, field, set } = useForm<Form>(() => formOf(settings), save.error);
  const connections = useConnections(accountId);
  const [touched, setTouched] = useState(false);
  const change = (c: Partial<Form>) => {
    setTouched(true);
    set(c);
  };
  const bind = (name: Exclude<keyof Form, 'connections'>) => {
    const f = field(name);
    return { ...f, onChange: (e: { target: { value: string } }) => change({ [name]: e.target.value }) };
  };
  const preview = useMemo(() => {
    const filled = {
      template: form.template,
      grantHashtag: hashtagOf(form.grantHashtag) || settings.grantHashtag,
      brand: form.brand,
      termsUrl: form.termsUrl.trim(),
    };
    return {
      text: requestText({ ...settings, ...filled }, SAMPLE),
      problems: templateProblems(filled),
    };
  }, [form.template, form.grantHashtag, form.brand, form.termsUrl, settings]);
  const byNetwork = (network: string): Connection[] =>
    (connections.data?.data ?? []).filter((c) => c.network === network);

  const submit = onSubmit(() =>
    save.mutate({
      template: form.template,
      grantHashtag: hashtagOf(form.grantHashtag),
      declineWords: wordsOf(form.declineWords),
      brand: form.brand.trim(),
      termsUrl: form.termsUrl.trim(),
      mastodonVisibility: form.mastodonVisibility as RightsSettings['mastodonVisibility'],
      perAuthorPerDay: numberOut(form.perAuthorPerDay),
      perDay: numberOut(form.perDay),
      expireDays: numberOut(form.expireDays),
      connections: Object.fromEntries(
        Object.entries(form.connections)
          .filter(([, id]) => id !== '')
          .map(([n, id]) => [n, Number(id)]),
      ),
    }),
  );

  return (
    <form onSubmit={submit} noValidate aria-label="Rights settings">
      <ErrorNote error={save.error} title="The rights settings were not saved" />
      <fieldset disabled={!mayEdit}>
        <TextAreaField
          label="Request text"
          rows={3}
          {...bind('template')}
          hint="{author} is the author’s handle, {hashtag} the grant hashtag, {brand} your brand, {terms} “ Terms: ” and the terms’ link."
        />
        <div className="field">
          <p className="label-like" id="rights-preview-label">
            Preview (to {SAMPLE.username})
          </p>
          <p className="rights-text rights-preview" aria-labelledby="rights-preview-label" data-testid="rights-preview">
            {preview.text}
          </p>
          {preview.problems.map((p) => (
            <p key={p} className="field-error">
              {p}
            </p>
          ))}
        </div>
        <div className="rights-limits">
          <TextField label="Grant hashtag" {...bind('grantHashtag')} hint="An author who answers with it agrees." />
          <TextField label="Brand" {...bind('brand')} />
          <TextField label="Terms link" type="url" inputMode="url" {...bind('termsUrl')} hint="Optional." />
        </div>
        <TextField
          label="Decline words"
          {...bind('declineWords')}
          hint="Comma-separated words or hashtags an answer says no with (when it has no grant hashtag)."
        />
        <fieldset>
          <legend>Who asks on each network</legend>
          <p className="hint">
            One of the account’s <a href={href.connections(accountId)}>connections</a>. Automatic: the feed’s own, else
            the first that works. A network without one is asked by hand: the console gives you the text to send.
          </p>
          <div className="rights-networks">
            {REPLY_NETWORKS.map(([network, title]) => {
              const own = byNetwork(network);
              const chosen = form.connections[network] ?? '';
              return (
                <SelectField
                  key={network}
                  label={title}
                  value={chosen}
                  onChange={(e) => change({ connections: { ...form.connections, [network]: e.target.value } })}
                >
                  <option value="">{own.length === 0 ? 'None: asked by hand' : 'Automatic'}</option>
                  <Options
                    of={own.map(
                      (c) =>
                        [
                          String(c.id),
                          `${c.name}${c.externalAccountName ? ` (${c.externalAccountName})` : ''}`,
                        ] as const,
                    )}
                  />
                  {chosen !== '' && !own.some((c) => String(c.id) === chosen) && (
                    <option value={chosen}>connection #{chosen} (gone)</option>
                  )}
                </SelectField>
              );
            })}
            <SelectField label="Mastodon: who sees a request" {...bind('mastodonVisibility')}>
              <option value="public">Public</option>
              <option value="unlisted">Unlisted (not on public timelines)</option>
              <option value="direct">The author only (a direct mention)</option>
            </SelectField>
          </div>
        </fieldset>
        <fieldset>
          <legend>Limits</legend>
          <div className="rights-limits">
            <TextField
              label="Requests to one author a day"
              inputMode="numeric"
              {...bind('perAuthorPerDay')}
              hint="1–20"
            />
            <TextField
              label="Requests a day"
              inputMode="numeric"
              {...bind('perDay')}
              hint="1–5000, the whole account"
            />
            <TextField
              label="Unanswered requests expire after (days)"
              inputMode="numeric"
              {...bind('expireDays')}
              hint="1–365"
            />
          </div>
        </fieldset>
      </fieldset>
      {mayEdit && (
        <div className="form-actions">
          <Button type="submit" variant="primary" disabled={save.isPending || !touched}>
            Save settings
          </Button>
        </div>
      )}
    </form>
  );
}
