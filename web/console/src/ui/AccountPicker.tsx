// Which account a screen shows (products, keys, webhooks): the accounts the
// token sees; choosing one changes the URL, so the choice is a deep link.
import type { ReactNode } from 'react';
import type { Account } from '../api/client';
import type { useChosenAccount } from '../api/queries/accounts';
import { SelectField } from './fields';
import { Announce, QueryStatus, ScreenTitle } from './kit';

export function AccountPicker({
  accounts,
  value,
  link,
}: {
  accounts: Account[];
  value: number | undefined;
  link(accountId: number): string;
}) {
  if (accounts.length < 2) return null;
  return (
    <div className="picker">
      <SelectField
        label="Account"
        value={value ?? ''}
        onChange={(e) => {
          location.hash = link(Number(e.target.value));
        }}
      >
        {accounts.map((a) => (
          <option key={a.id} value={a.id}>
            {a.name} (#{a.id}, {a.plan})
          </option>
        ))}
      </SelectField>
    </div>
  );
}

/**
 * The head of an account's screen: its title (with the account's name) and
 * `children` (its buttons), the account picker, what the last action did, and
 * the accounts' loading, error or "no such account".
 */
export function AccountScreenHead({
  title,
  chosen: { account, accounts, query },
  link,
  said,
  children,
}: {
  title: string;
  chosen: ReturnType<typeof useChosenAccount>;
  link(accountId: number): string;
  said: string;
  children?: ReactNode;
}) {
  return (
    <>
      <div className="screen-head">
        <ScreenTitle>
          {title}
          {account ? ` · ${account.name}` : ''}
        </ScreenTitle>
        {children}
      </div>
      <AccountPicker accounts={accounts} value={account?.id} link={link} />
      <Announce message={said} />
      <QueryStatus
        query={query}
        what="accounts"
        empty={!account && 'There is no such account, or this token does not see it.'}
      />
    </>
  );
}
