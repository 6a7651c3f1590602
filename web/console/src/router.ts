// Screens by the URL's hash (#/walls/3/queue): deep links and the back button
// work, the server serves one page at /console/, and nothing secret is ever
// in the URL (the token stays in sessionStorage).
import { useEffect, useState } from 'react';

export type Route =
  | { screen: 'home' }
  | { screen: 'accounts' }
  | { screen: 'walls' }
  | { screen: 'tokens' }
  | { screen: 'queue'; wallId: number }
  | { screen: 'feeds'; wallId: number }
  | { screen: 'rules'; wallId: number }
  | { screen: 'control'; wallId: number }
  | { screen: 'products'; accountId: number | null }
  | { screen: 'shop'; wallId: number }
  | { screen: 'hotspots'; wallId: number; postId: number }
  | { screen: 'posts'; wallId: number }
  | { screen: 'post'; wallId: number; postId: number }
  | { screen: 'keys'; accountId: number | null }
  | { screen: 'embed'; wallId: number | null }
  | { screen: 'analytics'; wallId: number | null }
  | { screen: 'audit' }
  | { screen: 'webhooks'; accountId: number | null; webhookId: number | null }
  | { screen: 'connections'; accountId: number | null; connected: number | null }
  | { screen: 'rights'; accountId: number | null }
  | { screen: 'notFound' };

export function parseRoute(hash: string): Route {
  const path = hash.replace(/^#/, '').replace(/\/+$/, '');
  // the landing screen: what needs attention
  if (path === '' || path === '/home') return { screen: 'home' };
  if (path === '/accounts') return { screen: 'accounts' };
  if (path === '/walls') return { screen: 'walls' };
  if (path === '/tokens') return { screen: 'tokens' };
  const m = /^\/walls\/(\d{1,15})\/(queue|feeds|rules|control)$/.exec(path);
  if (m) return { screen: m[2] as 'queue' | 'feeds' | 'rules' | 'control', wallId: Number(m[1]) };
  return parseCatalogueAndAccountRoute(path);
}

/** The other screens: products and hotspots, keys and usage, rights, embed, analytics, audit, webhooks. */
function parseCatalogueAndAccountRoute(path: string): Route {
  let m = /^\/(products|keys|rights)(?:\/(\d{1,15}))?$/.exec(path);
  if (m) return { screen: m[1] as 'products' | 'keys' | 'rights', accountId: m[2] ? Number(m[2]) : null };
  m = /^\/(embed|analytics)(?:\/(\d{1,15}))?$/.exec(path);
  if (m) return { screen: m[1] as 'embed' | 'analytics', wallId: m[2] ? Number(m[2]) : null };
  if (path === '/audit') return { screen: 'audit' };
  // ?connected=ID: where the connect flow's callback sends the browser back
  m = /^\/connections(?:\/(\d{1,15}))?(?:\?connected=(\d{1,15}))?$/.exec(path);
  if (m) return { screen: 'connections', accountId: m[1] ? Number(m[1]) : null, connected: m[2] ? Number(m[2]) : null };
  m = /^\/webhooks(?:\/(\d{1,15})(?:\/(\d{1,15}))?)?$/.exec(path);
  if (m) return { screen: 'webhooks', accountId: m[1] ? Number(m[1]) : null, webhookId: m[2] ? Number(m[2]) : null };
  m = /^\/walls\/(\d{1,15})\/shop$/.exec(path);
  if (m) return { screen: 'shop', wallId: Number(m[1]) };
  m = /^\/walls\/(\d{1,15})\/posts\/(\d{1,15})\/products$/.exec(path);
  if (m) return { screen: 'hotspots', wallId: Number(m[1]), postId: Number(m[2]) };
  m = /^\/walls\/(\d{1,15})\/posts(?:\/(\d{1,15}))?$/.exec(path);
  if (m)
    return m[2]
      ? { screen: 'post', wallId: Number(m[1]), postId: Number(m[2]) }
      : { screen: 'posts', wallId: Number(m[1]) };
  return { screen: 'notFound' };
}

export const href = {
  home: () => '#/home',
  accounts: () => '#/accounts',
  walls: () => '#/walls',
  tokens: () => '#/tokens',
  queue: (wallId: number) => `#/walls/${wallId}/queue`,
  feeds: (wallId: number) => `#/walls/${wallId}/feeds`,
  rules: (wallId: number) => `#/walls/${wallId}/rules`,
  /** the wall's live screen control */
  control: (wallId: number) => `#/walls/${wallId}/control`,
  products: (accountId?: number | null) => (accountId ? `#/products/${accountId}` : '#/products'),
  shop: (wallId: number) => `#/walls/${wallId}/shop`,
  hotspots: (wallId: number, postId: number) => `#/walls/${wallId}/posts/${postId}/products`,
  /** a wall's posts (the browser), and one post's editor */
  posts: (wallId: number) => `#/walls/${wallId}/posts`,
  post: (wallId: number, postId: number) => `#/walls/${wallId}/posts/${postId}`,
  keys: (accountId?: number | null) => (accountId ? `#/keys/${accountId}` : '#/keys'),
  embed: (wallId?: number | null) => (wallId ? `#/embed/${wallId}` : '#/embed'),
  analytics: (wallId?: number | null) => (wallId ? `#/analytics/${wallId}` : '#/analytics'),
  audit: () => '#/audit',
  /** an account's connections to networks (tokens and API keys, the Connect buttons) */
  connections: (accountId?: number | null) => (accountId ? `#/connections/${accountId}` : '#/connections'),
  /** an account's rights management: settings, opt-out list, evidence report */
  rights: (accountId?: number | null) => (accountId ? `#/rights/${accountId}` : '#/rights'),
  /** an account's webhooks; with a webhook, its delivery log too */
  webhooks: (accountId?: number | null, webhookId?: number | null) =>
    accountId ? (webhookId ? `#/webhooks/${accountId}/${webhookId}` : `#/webhooks/${accountId}`) : '#/webhooks',
};

export function useRoute(): Route {
  const [route, setRoute] = useState(() => parseRoute(location.hash));
  useEffect(() => {
    const update = () => setRoute(parseRoute(location.hash));
    addEventListener('hashchange', update);
    return () => removeEventListener('hashchange', update);
  }, []);
  return route;
}
