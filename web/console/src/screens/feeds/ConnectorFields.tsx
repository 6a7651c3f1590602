// The settings of one connector kind, made from its catalogue entry: the
// kind's description and "What you need" (its page in the guide), a radio
// group for each one-of group (which of its fields to fill), one input per
// field (label and hint from the schema's title and description, a required
// mark), the connection picker for a network that reads with the account's
// credentials, and base URL overrides under "Advanced". The API's refusal of
// a setting shows under its field.
import { useId } from 'react';
import type { CatalogueField, CatalogueKind } from '../../api/connectors.gen';
import { fieldMessage } from '../../api/messages';
import { CheckboxField, SelectField, TextField } from '../../ui/fields';
import { useConnections, type Connection } from './connections';
import { aboutText, groupOf, shownFields, type ConnectorForm, type FieldValue } from './settings';

/** The guide's page (served by the instance at /guide/, beside /console/). */
const guideHref = (docs: string) => `../guide${docs}`;
/** The account's Connections screen, where a network is connected. */
export const connectionsHref = (accountId: number) => `#/connections/${accountId}`;

interface Props {
  info: CatalogueKind;
  form: ConnectorForm;
  onChange(form: ConnectorForm): void;
  /** the API's message for a setting (`url` → connector.url) */
  errorOf(name: string): string | undefined;
  /** the wall's account (whose connections the picker lists) */
  accountId: number | undefined;
}

// A required setting's control is `required` (the form sends anyway, noValidate: the API says what is
// missing); feeds.css marks its label. The label itself stays the title: refusals name the field by it.

export function ConnectorFields({ info, form, onChange, errorOf, accountId }: Props) {
  const setValue = (name: string, value: FieldValue) =>
    onChange({ ...form, values: { ...form.values, [name]: value } });
  const shown = shownFields(form);
  const field = (f: CatalogueField) => (
    <SettingField
      key={f.name}
      field={f}
      value={form.values[f.name]}
      onValue={(v) => setValue(f.name, v)}
      error={errorOf(f.name)}
      info={info}
      accountId={accountId}
    />
  );
  const advanced = shown.filter((f) => f.advanced);
  return (
    <>
      <p className="hint connector-about">
        {aboutText(info.description)}
        {info.docs && (
          <>
            {' '}
            <a href={guideHref(info.docs)} target="_blank" rel="noopener">
              What you need<span className="sr-only"> for {info.title}</span>
            </a>
          </>
        )}
      </p>
      {info.anyOf.map((group) => (
        <p key={group.join()} className="hint">
          Fill at least one of {group.map((name) => info.fields.find((f) => f.name === name)?.title ?? name).join(', ')}
          .
        </p>
      ))}
      {shown
        .filter((f) => !f.advanced)
        .map((f) => {
          const group = groupOf(info, f.name);
          if (group < 0) return field(f);
          return (
            <div key={f.name} className="one-of">
              <OneOf
                info={info}
                names={info.oneOf[group]!}
                chosen={f.name}
                onChoose={(name) => onChange({ ...form, chosen: form.chosen.map((c, i) => (i === group ? name : c)) })}
              />
              {field(f)}
            </div>
          );
        })}
      {advanced.length > 0 && (
        <details className="connector-advanced" open={advanced.some((f) => errorOf(f.name) || form.values[f.name])}>
          <summary>Advanced</summary>
          {advanced.map(field)}
        </details>
      )}
    </>
  );
}

/** Which field of a one-of group to fill: radio buttons labelled by the fields' titles. */
function OneOf({
  info,
  names,
  chosen,
  onChoose,
}: {
  info: CatalogueKind;
  names: readonly string[];
  chosen: string;
  onChoose(name: string): void;
}) {
  const id = useId();
  const titleOf = (name: string) => info.fields.find((f) => f.name === name)?.title ?? name;
  return (
    <fieldset className="radios">
      <legend>Collect by</legend>
      {names.map((name) => (
        <label key={name}>
          <input type="radio" name={id} value={name} checked={chosen === name} onChange={() => onChoose(name)} />{' '}
          {titleOf(name)}
        </label>
      ))}
    </fieldset>
  );
}

interface FieldProps {
  field: CatalogueField;
  value: FieldValue | undefined;
  onValue(value: FieldValue): void;
  error: string | undefined;
  info: CatalogueKind;
  accountId: number | undefined;
}

function SettingField({ field: f, value, onValue, error, info, accountId }: FieldProps) {
  const text = typeof value === 'string' ? value : '';
  const hint = f.description || undefined;
  switch (f.input) {
    case 'checkbox':
      return <CheckboxField label={f.title} checked={value === true} onChange={(e) => onValue(e.target.checked)} />;
    case 'select':
      return (
        <SelectField
          label={f.title}
          hint={hint}
          error={error}
          required={f.required}
          value={text}
          onChange={(e) => onValue(e.target.value)}
        >
          {!f.required && <option value="">Default</option>}
          {f.required && text === '' && <option value="">Choose…</option>}
          {(f.options ?? []).map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </SelectField>
      );
    case 'connection':
      return <ConnectionPicker {...{ field: f, text, onValue, error, info, accountId }} />;
    default:
      return (
        <TextField
          label={f.title}
          hint={f.input === 'list' ? `${hint ? `${hint}; ` : ''}separate them with commas` : hint}
          error={error}
          type={f.input === 'url' ? 'url' : f.input === 'number' ? 'number' : 'text'}
          value={text}
          onChange={(e) => onValue(e.target.value)}
          placeholder={f.placeholder}
          min={f.min}
          max={f.max}
          maxLength={f.maxLength}
          required={f.required}
        />
      );
  }
}

/** A connection as the picker lists it: its name, the network account, its status in words unless it is simply fine. */
const connectionText = (c: Connection) =>
  `${c.name}${c.externalAccountName ? ` (${c.externalAccountName})` : ''}${
    c.status !== 'active' || c.expiresAt !== null ? ` — ${c.statusText}` : ''
  }`;

/**
 * The account's connections of the kind's network to choose from; none yet:
 * a link to connect one. While they cannot be read (the account is not known
 * yet, or the API refuses), a plain id field.
 */
function ConnectionPicker({
  field: f,
  text,
  onValue,
  error,
  info,
  accountId,
}: Omit<FieldProps, 'value'> & { text: string }) {
  const connections = useConnections(accountId);
  const mine = (connections.data ?? []).filter((c) => c.network === info.network);
  const connect = accountId !== undefined && (
    <a href={connectionsHref(accountId)} className="connect-link">
      Connect {info.source}
    </a>
  );
  if (connections.isPending && accountId !== undefined)
    return (
      <p className="hint" role="status">
        Loading the account’s {info.source} connections…
      </p>
    );
  if (connections.isError || accountId === undefined)
    return (
      <TextField
        label={`${f.title} id`}
        required={f.required}
        hint={`The account’s connections could not be read; type the id of its ${info.source} connection.`}
        error={error}
        inputMode="numeric"
        value={text}
        onChange={(e) => onValue(e.target.value)}
      />
    );
  if (mine.length === 0)
    return (
      <div className={error ? 'field field-invalid connection-none' : 'field connection-none'}>
        <p className="field-label">
          {f.title}
          {f.required && <span className="required-mark"> (required)</span>}
        </p>
        <p className="hint">
          {f.required
            ? `This account has no ${info.source} connection yet: a feed of this kind reads with one.`
            : `This account has no ${info.source} connection: the feed reads without one.`}{' '}
          {connect}
        </p>
        {error && <p className="field-error">{fieldMessage(error, f.title)}</p>}
      </div>
    );
  return (
    <SelectField
      label={f.title}
      hint={f.description || undefined}
      error={error}
      required={f.required}
      value={text}
      onChange={(e) => onValue(e.target.value)}
    >
      <option value="">{f.required ? 'Choose a connection…' : 'None: read without one'}</option>
      {mine.map((c) => (
        <option key={c.id} value={String(c.id)}>
          {connectionText(c)}
        </option>
      ))}
    </SelectField>
  );
}
