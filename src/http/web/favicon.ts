// Wallery's icon: one small SVG (a wall of tiles), answered at /favicon.svg
// and at /favicon.ico — the address browsers ask for on their own — and
// linked from every page Wallery serves (the hosted wall, the visitor pages,
// the console, the start page).
import type { FastifyInstance } from 'fastify';

export const FAVICON_PATH = '/favicon.svg';

/** A rounded square of four tiles; it reads on light and dark tabs alike. */
export const FAVICON_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">' +
  '<rect width="32" height="32" rx="7" fill="#2450d6"/>' +
  '<rect x="6" y="6" width="9" height="12" rx="2" fill="#fff"/>' +
  '<rect x="17" y="6" width="9" height="7" rx="2" fill="#fff" fill-opacity=".75"/>' +
  '<rect x="6" y="20" width="9" height="6" rx="2" fill="#fff" fill-opacity=".75"/>' +
  '<rect x="17" y="15" width="9" height="11" rx="2" fill="#fff"/>' +
  '</svg>\n';

/** `<link>` of the icon for a page's head (an absolute path: every page is at the root's host). */
export const FAVICON_LINK = `<link rel="icon" href="${FAVICON_PATH}" type="image/svg+xml">`;

export function registerFavicon(app: FastifyInstance): void {
  const body = Buffer.from(FAVICON_SVG);
  for (const path of [FAVICON_PATH, '/favicon.ico']) {
    app.get(path, { schema: { hide: true } }, async (_request, reply) =>
      reply
        .type('image/svg+xml')
        .header('Cache-Control', 'public, max-age=86400')
        .header('X-Content-Type-Options', 'nosniff')
        // an SVG opened on its own runs nothing
        .header('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'")
        .send(body),
    );
  }
}
