// Sends one signed delivery: a POST of the JSON body, through the same SSRF
// guard as ingestion (net/guard.ts: checkUrl before, the guarded agent's
// lookup at connect time, so a host that resolves to a private address is
// refused even after a DNS change), no redirects followed (a 3xx is a
// failure), a time cap, and the response body thrown away unread beyond a
// small limit. The network policy is webhooks' own
// (WEBHOOK_ALLOW_PRIVATE_NETWORKS), not ingestion's.
//
// What the result shows (`error`) is only "answered <status>" or one
// NO_ANSWER for every failure without an HTTP answer; the socket-level cause
// is in `cause`, for the operator's log only (see domain/delivery-outcome.ts).
import { request, type Agent } from 'undici';
import { answeredError, NO_ANSWER } from '../domain/delivery-outcome.js';
import { signatureHeader } from '../domain/webhook-signature.js';
import { SsrfError } from '../net/errors.js';
import { checkUrl, guardedAgent, type GuardOptions } from '../net/guard.js';

export const WEBHOOK_USER_AGENT = 'Wallery-Webhooks/0.1 (+https://github.com/wallery; self-hosted social wall)';

export interface SendResult {
  ok: boolean;
  httpStatus: number | null;
  latencyMs: number;
  /** shown in the delivery log and the API: the HTTP status in words or NO_ANSWER; never a socket error, the body or a secret */
  error: string | null;
  /** why no HTTP answer came (socket error, DNS, the address policy): for the operator's log, never an answer */
  cause: string | null;
}

export interface SenderOptions extends GuardOptions {
  now?: () => number;
}

export class WebhookSender {
  private readonly agent: Agent;

  constructor(private readonly options: SenderOptions) {
    this.agent = guardedAgent(options);
  }

  /** POSTs `body` to `url` signed with each secret (one `v1` each); never throws. */
  async send(
    url: string,
    secret: string | readonly string[],
    event: { id: string; type: string },
    body: string,
    signal?: AbortSignal,
  ): Promise<SendResult> {
    const started = performance.now();
    const done = (r: Omit<SendResult, 'latencyMs'>): SendResult => ({
      ...r,
      latencyMs: Math.round(performance.now() - started),
    });
    const timeout = AbortSignal.timeout(this.options.timeoutMs);
    const all = signal ? AbortSignal.any([signal, timeout]) : timeout;
    try {
      const target = checkUrl(url, this.options.allowPrivateNetworks);
      const t = Math.floor((this.options.now ?? Date.now)() / 1000);
      const res = await request(target, {
        method: 'POST',
        dispatcher: this.agent,
        signal: all,
        body,
        headers: {
          'content-type': 'application/json',
          'user-agent': WEBHOOK_USER_AGENT,
          'wallery-event-id': event.id,
          'wallery-event-type': event.type,
          'wallery-signature': signatureHeader(secret, t, body),
        },
      });
      await res.body.dump({ limit: 64 * 1024 }).catch(() => undefined);
      const ok = res.statusCode >= 200 && res.statusCode < 300;
      return done({ ok, httpStatus: res.statusCode, error: ok ? null : answeredError(res.statusCode), cause: null });
    } catch (err) {
      const cause = describe(err, timeout.aborted, this.options.timeoutMs);
      return done({ ok: false, httpStatus: null, error: NO_ANSWER, cause });
    }
  }

  async close(): Promise<void> {
    await this.agent.close();
  }
}

/** The cause of a failure without an answer, in a line (the operator's log). */
function describe(err: unknown, timedOut: boolean, timeoutMs: number): string {
  const cause = (err as { cause?: unknown })?.cause;
  if (err instanceof SsrfError) return err.message;
  if (cause instanceof SsrfError) return cause.message;
  const code = (err as { code?: string })?.code ?? '';
  if (timedOut || code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_CONNECT_TIMEOUT')
    return `no answer within ${timeoutMs} ms`;
  const message = (err as Error)?.message ?? String(err);
  return `${code ? `${code} ` : ''}${message}`.slice(0, 300);
}
