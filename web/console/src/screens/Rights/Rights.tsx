// An account's rights management: the settings (the request's text with a
// live preview, the grant hashtag and decline words, the connection that asks
// on each network, the limits), the opt-out list (authors never asked again:
// add, remove) and the evidence report (a table; a CSV download fetched with
// the token in its header).
import { useChosenAccount } from '../../api/queries/accounts';
import { useMe } from '../../auth';
import { href } from '../../router';
import { AccountScreenHead } from '../../ui/AccountPicker';
import { useState } from 'react';
import { OptOuts } from './OptOuts';
import { RightsReportPanel } from './Report';
import { RightsSettingsPanel } from './SettingsForm';
import './Rights.css';

export function Rights({ accountId }: { accountId: number | null }) {
  const me = useMe();
  const chosen = useChosenAccount(accountId);
  const { account } = chosen;
  const [said, setSaid] = useState('');
  return (
    <section className="screen rights-screen">
      <AccountScreenHead title="Rights" chosen={chosen} link={href.rights} said={said} />
      {account && (
        <>
          <p className="hint">
            Ask authors for permission to show their posts, keep their answers as evidence, and never ask those who said
            no again. A wall shows posts without rights until it requires them (a wall’s settings: “Rights required”).
          </p>
          <RightsSettingsPanel
            accountId={account.id}
            mayEdit={me.can('PATCH /accounts/{accountId}/rights-settings')}
            say={setSaid}
          />
          <div className="rights-grid">
            <RightsReportPanel accountId={account.id} say={setSaid} />
            <OptOuts
              accountId={account.id}
              mayEdit={me.can('POST /accounts/{accountId}/rights/opt-outs')}
              say={setSaid}
            />
          </div>
        </>
      )}
    </section>
  );
}
