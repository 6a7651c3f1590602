// Screens by the URL's hash (#/walls/3/queue): deep links and the back button
// work, the server serves one page at /console/, and nothing secret is ever
// in the URL (the token stays in sessionStorage).
import { useEffect, useState } from 'react';

export type Route =
  | { screen: 'walls' }
  | { screen: 'tokens' }
  | { screen: 'audit' }
  | { screen: 'queue'; wallId: number }
  | { screen: 'feeds'; wallId: number }
  | { screen: 'rules'; wallId: number }
  | { screen: 'embed'; wallId: number }
  | { screen: 'notFound' };

export function parseRoute(hash: string): Route {
  const path = hash.replace(/^#/, '').replace(/\/+$/, '');
  if (path === '' || path === '/walls') return { screen: 'walls' };
  if (path === '/tokens') return { screen: 'tokens' };
  if (path === '/audit') return { screen: 'audit' };
  const m = /^\/walls\/(\d{1,15})\/(queue|feeds|rules|embed)$/.exec(path);
  if (m) return { screen: m[2] as 'queue' | 'feeds' | 'rules' | 'embed', wallId: Number(m[1]) };
  return { screen: 'notFound' };
}

export const href = {
  walls: () => '#/walls',
  tokens: () => '#/tokens',
  audit: () => '#/audit',
  queue: (wallId: number) => `#/walls/${wallId}/queue`,
  feeds: (wallId: number) => `#/walls/${wallId}/feeds`,
  rules: (wallId: number) => `#/walls/${wallId}/rules`,
  embed: (wallId: number) => `#/walls/${wallId}/embed`,
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
