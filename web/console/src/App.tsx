// The frame: sign-in when signed out; otherwise a header (who is signed in,
// sign out), the navigation and the current screen.
import { useAuth, useMe } from './auth';
import { href, useRoute } from './router';
import { Feeds } from './screens/Feeds';
import { Queue } from './screens/Queue/Queue';
import { Rules } from './screens/Rules';
import { Control } from './screens/Control';
import { SignIn } from './screens/SignIn';
import { Tokens } from './screens/Tokens';
import { Walls } from './screens/Walls';
import { Analytics } from './screens/Analytics/Analytics';
import { Audit } from './screens/Audit';
import { Embed } from './screens/Embed';
import { Hotspots } from './screens/Hotspots/Hotspots';
import { Keys } from './screens/Keys';
import { Products } from './screens/Products';
import { Shop } from './screens/Shop';
import { Webhooks } from './screens/Webhooks/Webhooks';
import { Connections } from './screens/Connections';
import { Home } from './screens/Home';
import { Accounts } from './screens/Accounts';
import { Rights } from './screens/Rights/Rights';
import { PostEditor } from './screens/Posts/PostEditor';
import { Posts } from './screens/Posts/Posts';
import { Button, Loading, ScreenTitle } from './ui/kit';

/** the main navigation: screen and link text */
const MAIN_SCREENS = [
  ['home', 'Home'],
  ['walls', 'Walls'],
  ['products', 'Products'],
  ['keys', 'Keys & usage'],
  ['embed', 'Embed'],
  ['analytics', 'Analytics'],
  ['webhooks', 'Webhooks'],
  ['connections', 'Connections'],
  ['rights', 'Rights'],
  ['audit', 'Audit log'],
  ['accounts', 'Accounts'],
  ['tokens', 'Tokens'],
] as const;

export function App() {
  const { session } = useAuth();
  if (session.state === 'checking')
    return (
      <main className="center">
        <Loading what="your session" />
      </main>
    );
  if (session.state === 'signedOut') return <SignIn message={session.message} />;
  return <SignedIn />;
}

function SignedIn() {
  const me = useMe();
  const { signOut } = useAuth();
  const route = useRoute();
  // operator tokens are for unscoped admins only
  const mayManageTokens = me.can('GET /tokens') && me.accounts === null;
  // accounts are an admin's (a scoped admin sees its own, read-only)
  const mayManageAccounts = me.role === 'admin';
  const shown = (screen: string) =>
    (screen !== 'tokens' || mayManageTokens) && (screen !== 'accounts' || mayManageAccounts);
  return (
    <>
      <a className="skip" href="#main">
        Skip to content
      </a>
      <header className="top">
        <a className="brand" href={href.home()}>
          Wallery console
        </a>
        <nav aria-label="Main">
          {MAIN_SCREENS.filter(([screen]) => shown(screen)).map(([screen, label]) => (
            <a key={screen} href={href[screen]()} aria-current={route.screen === screen ? 'page' : undefined}>
              {label}
            </a>
          ))}
          {/* the instance's documentation site (src/http/web/guide.ts), beside the console */}
          <a href="../guide/">Help</a>
        </nav>
        <p className="who">
          <span className="who-name">{me.name}</span>{' '}
          <span className="badge" data-testid="role">
            {me.role}
          </span>
          {me.accounts && <span className="who-scope"> · accounts {me.accounts.join(', ')}</span>}
        </p>
        <Button onClick={() => signOut('You signed out.')}>Sign out</Button>
      </header>
      <main id="main" tabIndex={-1}>
        {route.screen === 'home' && <Home />}
        {route.screen === 'accounts' && mayManageAccounts && <Accounts />}
        {route.screen === 'walls' && <Walls />}
        {route.screen === 'tokens' && mayManageTokens && <Tokens />}
        {route.screen === 'queue' && <Queue key={route.wallId} wallId={route.wallId} />}
        {route.screen === 'feeds' && <Feeds key={route.wallId} wallId={route.wallId} />}
        {route.screen === 'rules' && <Rules key={route.wallId} wallId={route.wallId} />}
        {route.screen === 'control' && <Control key={route.wallId} wallId={route.wallId} />}
        {route.screen === 'products' && <Products key={route.accountId} accountId={route.accountId} />}
        {route.screen === 'shop' && <Shop key={route.wallId} wallId={route.wallId} />}
        {route.screen === 'hotspots' && (
          <Hotspots key={`${route.wallId}/${route.postId}`} wallId={route.wallId} postId={route.postId} />
        )}
        {route.screen === 'keys' && <Keys key={route.accountId} accountId={route.accountId} />}
        {route.screen === 'embed' && <Embed key={route.wallId} wallId={route.wallId} />}
        {route.screen === 'analytics' && <Analytics key={route.wallId} wallId={route.wallId} />}
        {route.screen === 'webhooks' && (
          <Webhooks key={route.accountId} accountId={route.accountId} webhookId={route.webhookId} />
        )}
        {route.screen === 'connections' && (
          <Connections key={route.accountId} accountId={route.accountId} connected={route.connected} />
        )}
        {route.screen === 'rights' && <Rights key={route.accountId} accountId={route.accountId} />}
        {route.screen === 'audit' && <Audit />}
        {route.screen === 'posts' && <Posts key={route.wallId} wallId={route.wallId} />}
        {route.screen === 'post' && (
          <PostEditor key={`${route.wallId}/${route.postId}`} wallId={route.wallId} postId={route.postId} />
        )}
        {(route.screen === 'notFound' || !shown(route.screen)) && (
          <>
            <ScreenTitle>Page not found</ScreenTitle>
            <p>
              There is no such page in the console. <a href={href.walls()}>Go to the walls</a>.
            </p>
          </>
        )}
      </main>
    </>
  );
}
