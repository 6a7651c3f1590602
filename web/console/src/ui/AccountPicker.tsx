// Which account a screen shows (products, keys): the accounts the token
// sees; choosing one changes the URL, so the choice is a deep link.
import { useQuery } from '@tanstack/react-query';
import { api, unwrap, type Account } from '../api/client';
import { SelectField } from './kit';

export function useAccounts() {
  return useQuery({
    queryKey: ['accounts'],
    queryFn: () => unwrap(api.GET('/accounts', { params: { query: { limit: '200' } } })),
    // a screen opened on an account made a moment ago (another operator, the CLI) must find it
    refetchOnMount: 'always',
  });
}

/** The account of the URL, else the first the token sees. */
export function useChosenAccount(accountId: number | null): { account: Account | undefined; accounts: Account[] } {
  const accounts = useAccounts().data?.data ?? [];
  const account = accountId === null ? accounts[0] : accounts.find((a) => a.id === accountId);
  return { account, accounts };
}

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
