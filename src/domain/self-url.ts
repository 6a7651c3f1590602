// The base of the absolute URLs Wallery gives of itself — its copies of the
// posts' pictures (/media/…) in the embed API, the webhook payloads and the
// management API — decided in one place: PUBLIC_URL when it is set; else the
// origin a request came to (the embed and management APIs answer requests);
// else, where there is no request (webhook deliveries, the CLI), the address
// the server listens at, as the start banner prints it.

/** Where this instance is reached. */
export interface SelfUrl {
  /** PUBLIC_URL (no trailing slash), or null when unset */
  readonly publicUrl: string | null;
  /** the listen address, for a use without a request: `http://localhost:PORT` (the port known once listening) */
  listening(): string;
}

/** PORT when it is not set. */
export const DEFAULT_PORT = 3000;

/** The address a server listening on `port` is reached at on its own machine. */
export const listenUrl = (port: number): string => `http://localhost:${port}`;

/** A SelfUrl of a fixed listen address (the CLI and a worker: the configured port). */
export const fixedSelfUrl = (publicUrl: string | null, port = DEFAULT_PORT): SelfUrl => ({
  publicUrl,
  listening: () => listenUrl(port),
});

/** The origin a request names (`http` or `https`, and its Host), or null when that is no valid origin. */
export function requestOrigin(protocol: string, host: string): string | null {
  if (host === '' || !/^[A-Za-z0-9.:[\]-]+$/.test(host)) return null;
  try {
    const url = new URL(`${protocol === 'https' ? 'https' : 'http'}://${host}`);
    return url.origin === 'null' ? null : url.origin;
  } catch {
    return null;
  }
}

/** The base of this instance's own URLs: PUBLIC_URL, else the request's origin, else the listen address. */
export function selfBase(self: SelfUrl, origin?: string | null): string {
  return self.publicUrl ?? origin ?? self.listening();
}
