// Add or edit a feed: its name, the network (every connector kind of the
// generated catalogue, by its schema's title, or none), that kind's settings
// (ConnectorFields), moderation and enabled. What the API refuses shows under
// the field it names; a refusal no field of the kind shows (a one-of rule, a
// setting of another kind) under the settings.
import { useState } from 'react';
import { apiErrorOf, type Feed, type FeedCreate, type FieldError } from '../../api/client';
import { CONNECTOR_CATALOGUE } from '../../api/connectors.gen';
import { fieldErrorText } from '../../api/messages';
import { useSaveFeed } from '../../api/queries/feeds';
import { useWall } from '../../api/queries/walls';
import { CheckboxField, FormActions, Options, SelectField, TextField } from '../../ui/fields';
import { onSubmit } from '../../ui/form';
import { ErrorNote } from '../../ui/kit';
import { ConnectorFields } from './ConnectorFields';
import {
  connectorOf,
  formOf,
  kindInfo,
  NO_CONNECTOR,
  shownFields,
  sourceOf,
  switchKind,
  type ConnectorForm,
} from './settings';
import './feeds.css';

const KINDS: [string, string][] = [
  ...CONNECTOR_CATALOGUE.map((k) => [k.kind, k.title] as [string, string]),
  [NO_CONNECTOR, 'None (posts come from import or the API)'],
];

export function FeedForm({
  wallId,
  feed,
  onDone,
}: {
  wallId: number;
  feed: Feed | null;
  onDone(message?: string): void;
}) {
  const [name, setName] = useState(feed?.name ?? '');
  const [moderation, setModeration] = useState<'' | 'auto' | 'manual'>(feed?.moderation ?? '');
  const [enabled, setEnabled] = useState(feed?.enabled ?? true);
  const [form, setForm] = useState<ConnectorForm>(() => {
    const saved = feed?.connector as Record<string, unknown> | null | undefined;
    if (feed && !saved) return formOf(NO_CONNECTOR);
    return saved ? formOf(String(saved.kind), saved) : formOf(CONNECTOR_CATALOGUE[0]!.kind);
  });
  const accountId = useWall(wallId).data?.accountId;
  const save = useSaveFeed(wallId, feed, {
    onSuccess: (saved) => onDone(feed ? `Feed “${saved.name}” saved.` : `Feed “${saved.name}” added.`),
  });
  const err = apiErrorOf(save.error);
  const info = kindInfo(form.kind);
  const connectorErrors = (err?.fieldErrors ?? []).filter(
    (e) => e.field === 'connector' || e.field.startsWith('connector.'),
  );
  /** the setting a refusal is about: its field, or the one a refusal of the whole connector names first */
  const settingOfError = (e: FieldError) =>
    e.field === 'connector'
      ? (/^connector\.(\w+):/.exec(e.message)?.[1] ?? null)
      : e.field.slice('connector.'.length).split(/[.[]/)[0]!;
  const errorOf = (name: string) => connectorErrors.find((e) => settingOfError(e) === name)?.message;
  // the connector's refusals that no field of this kind shows (the one-of rules, a setting of another kind)
  const shown = shownFields(form).map((f) => f.name);
  const otherConnectorErrors = connectorErrors.filter((e) => !shown.includes(settingOfError(e) ?? ''));
  const submit = onSubmit(() => {
    const body = {
      name,
      connector: connectorOf(form),
      enabled,
      moderation: moderation === '' ? null : moderation,
      ...sourceOf(form),
    };
    save.mutate(body as FeedCreate);
  });
  return (
    <form onSubmit={submit} noValidate>
      <ErrorNote error={save.error} title={feed ? 'The feed was not saved' : 'The feed was not added'} />
      <TextField
        label="Name"
        value={name}
        onChange={(e) => setName(e.target.value)}
        error={err?.forField('name')}
        required
      />
      <SelectField label="Network" value={form.kind} onChange={(e) => setForm(switchKind(form, e.target.value))}>
        <Options of={KINDS} />
      </SelectField>
      <fieldset className="connector" data-kind={form.kind}>
        <legend>What to collect</legend>
        {info ? (
          <ConnectorFields info={info} form={form} onChange={setForm} errorOf={errorOf} accountId={accountId} />
        ) : (
          <p className="hint">Nothing is polled; posts come from a data file import or the API.</p>
        )}
        {otherConnectorErrors.map((e) => (
          <p key={e.field} className="field-error">
            {fieldErrorText(e)}
          </p>
        ))}
      </fieldset>
      <SelectField
        label="Moderation"
        value={moderation}
        onChange={(e) => setModeration(e.target.value as '' | 'auto' | 'manual')}
        error={err?.forField('moderation')}
      >
        <option value="">As the wall says</option>
        <option value="manual">Manual: this feed’s posts wait for approval</option>
        <option value="auto">Auto: this feed’s posts appear at once</option>
      </SelectField>
      <CheckboxField
        label="Enabled (polled on its schedule)"
        checked={enabled}
        onChange={(e) => setEnabled(e.target.checked)}
      />
      <FormActions submit={feed ? 'Save feed' : 'Add feed'} pending={save.isPending} onCancel={() => onDone()} />
    </form>
  );
}
