// Accounts (admins): the accounts the token sees with their plan and daily
// call limit; an admin without an account scope creates, edits and deletes
// them — deleting asks for the account's name, typed. A token limited to
// accounts sees its own, read-only (the API allows it no more).
import { useState } from 'react';
import type { Account } from '../api/client';
import { useAccountPages, useDeleteAccount, useSaveAccount, type AccountCreate } from '../api/queries/accounts';
import { rowsOf } from '../api/queries/paging';
import { useMe } from '../auth';
import { href } from '../router';
import { FormActions, Options, SelectField, TextField } from '../ui/fields';
import { onSubmit, useForm } from '../ui/form';
import {
  Announce,
  Button,
  DataTable,
  DialogFor,
  ErrorNote,
  NoneYet,
  QueryRows,
  ScreenTitle,
  ShowMore,
} from '../ui/kit';
import './Accounts.css';

type Plan = Account['plan'];

/** Each plan, as a marketer reads it: what its keys may call. */
const PLAN_LABELS: Record<Plan, string> = {
  free: 'Free: no public API access',
  widget: 'Widget: the widget API',
  commerce: 'Commerce: the commerce (shop) API',
  enterprise: 'Enterprise: widget and commerce APIs',
};
const PLAN_NAMES: Record<Plan, string> = {
  free: 'Free',
  widget: 'Widget',
  commerce: 'Commerce',
  enterprise: 'Enterprise',
};
/** The limit the API gives an account made without one. */
const DEFAULT_LIMIT = 1000;

const count = new Intl.NumberFormat('en');

type Editing = { kind: 'create' } | { kind: 'edit'; account: Account } | { kind: 'delete'; account: Account };

export function Accounts() {
  const me = useMe();
  const pages = useAccountPages();
  const accounts = rowsOf(pages.data);
  const [editing, setEditing] = useState<Editing | null>(null);
  const [said, setSaid] = useState('');
  // the account writes are for admins without an account scope (403 for anyone else)
  const mayWrite = me.can('POST /accounts') && me.accounts === null;
  const done = (message?: string) => {
    setEditing(null);
    if (message) setSaid(message);
  };

  return (
    <section className="screen accounts">
      <div className="screen-head">
        <ScreenTitle>Accounts</ScreenTitle>
        {mayWrite && (
          <Button variant="primary" onClick={() => setEditing({ kind: 'create' })}>
            New account
          </Button>
        )}
      </div>
      <p className="muted accounts-intro">
        An account is a brand or event: it holds walls, products and keys. Its plan says which public APIs its keys may
        call; its daily call limit is shared by all its keys.
      </p>
      {!mayWrite && (
        <p className="note" data-testid="accounts-read-only">
          {me.accounts
            ? 'Your token is limited to these accounts: you can see them, and an admin without an account limit can change them.'
            : 'Only an admin can create, change or delete accounts.'}
        </p>
      )}
      <Announce message={said} />
      <QueryRows
        query={pages}
        what="accounts"
        rows={accounts}
        empty={
          <NoneYet howToAdd={mayWrite ? 'Create the first one with “New account”.' : 'An admin can create one.'}>
            No accounts yet.
          </NoneYet>
        }
      >
        <DataTable
          className="walls accounts-table"
          caption="Accounts with their plan and daily call limit"
          columns={['Account', 'Plan', 'Daily call limit', 'Actions']}
          numeric={['Daily call limit']}
        >
          {accounts.map((account) => (
            <tr key={account.id} data-account-id={account.id}>
              <th scope="row">
                <span className="wall-name">{account.name}</span>
                <span className="sub">
                  #{account.id} · since {new Date(account.createdAt).toLocaleDateString('en', { dateStyle: 'medium' })}
                </span>
              </th>
              <td data-label="Plan">{PLAN_NAMES[account.plan]}</td>
              <td data-label="Daily call limit" className="num">
                {count.format(account.dailyCallLimit)}
              </td>
              <td className="account-actions">
                {/* the buttons in a box of their own: the cell stays a table cell, its border in line */}
                <div className="actions">
                  <a className="btn btn-secondary" href={href.keys(account.id)}>
                    Keys &amp; usage<span className="sr-only"> of {account.name}</span>
                  </a>
                  {mayWrite && (
                    <>
                      <Button onClick={() => setEditing({ kind: 'edit', account })}>
                        Edit<span className="sr-only"> {account.name}</span>
                      </Button>
                      <Button variant="danger" onClick={() => setEditing({ kind: 'delete', account })}>
                        Delete<span className="sr-only"> {account.name}</span>
                      </Button>
                    </>
                  )}
                </div>
              </td>
            </tr>
          ))}
        </DataTable>
      </QueryRows>
      <ShowMore query={pages}>Show more accounts</ShowMore>
      <DialogFor state={editing} kind="create" title="New account" onClose={() => setEditing(null)}>
        {() => <AccountForm account={null} onDone={done} />}
      </DialogFor>
      <DialogFor state={editing} kind="edit" title="Edit account" onClose={() => setEditing(null)}>
        {({ account }) => <AccountForm account={account} onDone={done} />}
      </DialogFor>
      <DialogFor state={editing} kind="delete" title="Delete account" onClose={() => setEditing(null)}>
        {({ account }) => <DeleteAccount account={account} onDone={done} />}
      </DialogFor>
    </section>
  );
}

/** The limit as typed: empty is none (the API's default, or unchanged), a whole number a number, else as typed for the API to name. */
function limitOut(typed: string): number | undefined {
  const t = typed.trim().replace(/[\s,_]/g, '');
  if (t === '') return undefined;
  return /^\d{1,10}$/.test(t) ? Number(t) : (typed as unknown as number);
}

function AccountForm({ account, onDone }: { account: Account | null; onDone(message?: string): void }) {
  const save = useSaveAccount(account, {
    onSuccess: (saved) => onDone(account ? `Account “${saved.name}” saved.` : `Account “${saved.name}” created.`),
  });
  const { form, field } = useForm(
    {
      name: account?.name ?? '',
      plan: account?.plan ?? ('enterprise' as Plan),
      dailyCallLimit: account ? String(account.dailyCallLimit) : '',
    },
    save.error,
  );
  const submit = onSubmit(() => {
    const limit = limitOut(form.dailyCallLimit);
    const fields: AccountCreate = {
      name: form.name,
      plan: form.plan,
      ...(limit !== undefined ? { dailyCallLimit: limit } : {}),
    };
    save.mutate(fields);
  });
  return (
    <form onSubmit={submit} noValidate>
      <ErrorNote error={save.error} title={account ? 'The account was not saved' : 'The account was not created'} />
      <TextField label="Name" {...field('name')} autoComplete="off" required />
      <SelectField label="Plan" {...field('plan')}>
        <Options of={(Object.keys(PLAN_LABELS) as Plan[]).map((p) => [p, PLAN_LABELS[p]])} />
      </SelectField>
      <TextField
        label="Daily call limit"
        inputMode="numeric"
        {...field('dailyCallLimit')}
        placeholder={account ? undefined : String(DEFAULT_LIMIT)}
        hint={`Public API calls a day (UTC), shared by all the account’s keys; 0 to 1,000,000,000.${
          account ? '' : ` Empty: ${count.format(DEFAULT_LIMIT)}.`
        }`}
      />
      <FormActions
        submit={account ? 'Save account' : 'Create account'}
        pending={save.isPending}
        onCancel={() => onDone()}
      />
    </form>
  );
}

/** Deleting, confirmed by typing the account's name. */
function DeleteAccount({ account, onDone }: { account: Account; onDone(message?: string): void }) {
  const [typed, setTyped] = useState('');
  const [tried, setTried] = useState(false);
  const remove = useDeleteAccount(account, { onSuccess: () => onDone(`Account “${account.name}” deleted.`) });
  const matches = typed.trim() === account.name.trim();
  const submit = onSubmit(() => {
    setTried(true);
    if (matches) remove.mutate();
  });
  return (
    <form onSubmit={submit} noValidate>
      <p>
        Delete “{account.name}” for good? Its user keys stop working at once, and its products and usage go with it. An
        account that still has walls is not deleted: delete and purge its walls first.
      </p>
      <ErrorNote error={remove.error} title="The account was not deleted" />
      <TextField
        label="Type the account’s name to confirm"
        value={typed}
        onChange={(e) => setTyped(e.target.value)}
        autoComplete="off"
        spellCheck={false}
        hint={`Type: ${account.name}`}
        error={
          tried && !matches ? `Type the name exactly as shown (${account.name}) to delete the account.` : undefined
        }
      />
      <div className="form-actions">
        <Button type="submit" variant="danger" aria-disabled={!matches} disabled={remove.isPending}>
          Delete account
        </Button>
        <Button onClick={() => onDone()}>Cancel</Button>
      </div>
    </form>
  );
}
