// Why an outbound request failed, for its caller to tell apart.

export type FetchErrorKind = 'refused' | 'scheme' | 'redirect' | 'timeout' | 'too_large' | 'network' | 'aborted';

export class FetchError extends Error {
  override name = 'FetchError';
  constructor(
    readonly kind: FetchErrorKind,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** The SSRF guard refused an address or URL. */
export class SsrfError extends FetchError {
  override name = 'SsrfError';
  readonly code = 'ERR_INGEST_SSRF';
  constructor(message: string) {
    super('refused', message);
  }
}
