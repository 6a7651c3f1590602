// The label values of the HTTP metrics: small fixed sets, so a series count
// never grows with traffic. A route family comes from the route's pattern
// (`/api/v2/widget/posts/:wall_id`), never from the URL a client sent.

export const ROUTE_FAMILIES = [
  'v2_widget',
  'v2_commerce',
  'manage',
  'embed',
  'embed_events',
  'embed_stream',
  'media',
  'web',
  'docs',
  'health',
  'metrics',
  'unmatched',
] as const;

export type RouteFamily = (typeof ROUTE_FAMILIES)[number];

export const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'other'] as const;

export const STATUS_CLASSES = ['1xx', '2xx', '3xx', '4xx', '5xx'] as const;

export const UNMATCHED = ROUTE_FAMILIES.indexOf('unmatched');

/**
 * The family of a route, from its pattern and its config (v2 routes name
 * their API family; the embed's beacons say so). Called once per route, when
 * it is registered.
 */
export function routeFamilyOf(
  pattern: string,
  config: { family?: 'widget' | 'commerce'; embedEvents?: boolean } = {},
): RouteFamily {
  if (pattern.startsWith('/api/v2/'))
    return config.family === 'commerce' || pattern.startsWith('/api/v2/commerce/') ? 'v2_commerce' : 'v2_widget';
  if (pattern.startsWith('/api/manage/')) return 'manage';
  if (pattern.startsWith('/api/embed/')) {
    if (config.embedEvents) return 'embed_events';
    return pattern.endsWith('/stream') ? 'embed_stream' : 'embed';
  }
  if (pattern.startsWith('/media/')) return 'media';
  if (pattern === '/healthz' || pattern === '/readyz') return 'health';
  if (pattern === '/metrics') return 'metrics';
  if (pattern === '/openapi.json' || pattern === '/docs' || pattern.startsWith('/docs/')) return 'docs';
  return 'web';
}
