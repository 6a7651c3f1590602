// The embed API client: the wall, its pages (cursor) and a revalidating read
// of the first page for polling.
import type { EmbedWall, PostsPage } from './types.js';

export class EmbedApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/**
 * The API base: the `api` attribute, else where this script was loaded from
 * (`…/embed/v1/wallery.js` or `…/assets/wallery-HASH.js` under the same base).
 */
export function apiBase(attribute: string | null, scriptUrl: string): string {
  if (attribute) return new URL(attribute, location.href).href.replace(/\/+$/, '');
  const url = new URL(scriptUrl);
  return url.origin + url.pathname.replace(/\/(embed\/v1|assets)\/[^/]*$/, '');
}

async function readJson<T>(response: Response): Promise<T> {
  if (!response.ok) {
    let message = `HTTP ${response.status}`;
    try {
      message = ((await response.json()) as { responseMessage?: string }).responseMessage ?? message;
    } catch {
      // not the JSON envelope
    }
    throw new EmbedApiError(response.status, message);
  }
  return (await response.json()) as T;
}

export class EmbedClient {
  constructor(
    private readonly base: string,
    private readonly wallId: string,
    private readonly key: string,
  ) {}

  /** An absolute URL for a path the API gave (postsUrl, streamUrl). */
  resolve(path: string): string {
    return new URL(path, this.base + '/').href;
  }

  async wall(): Promise<EmbedWall> {
    const url = `${this.base}/api/embed/v1/walls/${encodeURIComponent(this.wallId)}?key=${encodeURIComponent(this.key)}`;
    return (await readJson<{ wall: EmbedWall }>(await fetch(url, { cache: 'no-cache' }))).wall;
  }

  /**
   * A page of posts. The first page is always revalidated (`no-cache`): the
   * browser sends If-None-Match with the ETag it holds and a 304 costs no
   * body — that is the polling fallback, without a CORS preflight.
   */
  async page(postsUrl: string, limit: number, cursor: string | null = null): Promise<PostsPage> {
    const url = new URL(this.resolve(postsUrl));
    url.searchParams.set('limit', String(limit));
    if (cursor) url.searchParams.set('cursor', cursor);
    return readJson<PostsPage>(await fetch(url, cursor ? {} : { cache: 'no-cache' }));
  }
}
