// What the OAuth sign-in suites share: a management server whose connect
// flow signs in at the local authorization server (fixtures/oauth-server.ts,
// configured as `app`'s endpoints as OAUTH_<APP>_BASE_URL would), its
// connections sealed under `key`.
import type { OAuthAppName } from '../../src/connections/networks.js';
import { startManageServer, type ManageServer } from '../http/manage/helpers.js';
import { startOAuthServer, type OAuthServer, type Profile } from './fixtures/oauth-server.js';

export async function oauthServer(
  profile: Profile,
  app: OAuthAppName | null,
  key: Buffer,
): Promise<{ m: ManageServer; fx: OAuthServer }> {
  const m = await startManageServer();
  const fx = await startOAuthServer({ profile });
  fx.redirectUris.push(`${m.srv.baseUrl}/connect/callback`);
  m.srv.app.ctx.oauth = {
    config: {
      apps: app ? { [app]: { clientId: fx.clientId, clientSecret: fx.clientSecret, baseUrl: fx.origin } } : {},
    },
    allowPrivateNetworks: ['127.0.0.0/8'],
  };
  m.srv.app.ctx.connectionKey = key;
  return { m, fx };
}
