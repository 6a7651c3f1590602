// Moderation providers: a bigger model than the ones Wallery runs itself,
// asked over HTTP (a hosted service, or a server on the operator's own
// network). One interface, adapters per protocol (openai-provider.ts,
// http-provider.ts), and one wrapper that every call goes through: a timeout,
// a circuit breaker that stops asking a provider that keeps failing, and a
// daily budget of calls. A call that cannot be answered says why; the caller
// holds the post for a human — an outage never approves anything.
import {
  BrokenCircuitError,
  circuitBreaker,
  ConsecutiveBreaker,
  handleAll,
  TaskCancelledError,
  timeout,
  TimeoutStrategy,
  wrap,
} from 'cockatiel';

/** What a provider is shown of a post. */
export interface ModerationInput {
  /** the post's plain text (title and body) */
  text: string;
  /** absolute URLs of the post's pictures (Wallery's own copies where it has them) */
  pictures: string[];
  /** for providers that want context: the author's handle and the network */
  author: string;
  network: string;
}

/** One label a provider gave, with its score (0–1: how sure it is). */
export interface ProviderLabel {
  label: string;
  score: number;
}

/** A provider's answer: its labels, and the model that gave them. */
export interface ProviderVerdict {
  model: string;
  labels: ProviderLabel[];
}

/** A protocol adapter: asks once, throws on any failure (the wrapper decides what a failure means). */
export interface ProviderAdapter {
  /** what the model is called when the answer does not say */
  readonly defaultModel: string;
  classify(input: ModerationInput, signal: AbortSignal): Promise<ProviderVerdict>;
}

/** Why a provider gave no answer; each holds the post for a human. */
export const UNANSWERED = ['timeout', 'outage', 'circuit open', 'over budget', 'bad answer'] as const;
export type Unanswered = (typeof UNANSWERED)[number];

export type ProviderOutcome = { ok: true; verdict: ProviderVerdict } | { ok: false; why: Unanswered; detail: string };

/** A provider's answer was not in its protocol's shape (not worth retrying, but counted as a failure). */
export class BadAnswerError extends Error {
  override name = 'BadAnswerError';
}

export interface ResilienceOptions {
  /** a call taking longer is abandoned (its request aborted) */
  timeoutMs: number;
  /** this many failures in a row open the circuit … */
  failuresToOpen: number;
  /** … for this long; then one call is let through to see whether the provider is back */
  openForMs: number;
  /** calls a day (UTC), per Wallery instance; 0 = no limit */
  dailyBudget: number;
  /** the clock (tests) */
  now?: () => number;
}

export interface Provider {
  readonly name: string;
  ask(input: ModerationInput): Promise<ProviderOutcome>;
  /** calls made today, and whether the circuit is open (for metrics and the console) */
  state(): { callsToday: number; circuit: 'closed' | 'open' | 'half-open' | 'isolated' };
}

const DAY_MS = 86_400_000;
const CIRCUIT = ['closed', 'open', 'half-open', 'isolated'] as const;

/** A provider behind its timeout, circuit breaker and daily budget. */
export function resilientProvider(name: string, adapter: ProviderAdapter, options: ResilienceOptions): Provider {
  const now = options.now ?? Date.now;
  const breaker = circuitBreaker(handleAll, {
    halfOpenAfter: options.openForMs,
    breaker: new ConsecutiveBreaker(options.failuresToOpen),
  });
  // the breaker outside: a timeout is a failure it counts
  const policy = wrap(breaker, timeout(options.timeoutMs, TimeoutStrategy.Aggressive));
  let day = Math.floor(now() / DAY_MS);
  let calls = 0;

  return {
    name,
    async ask(input) {
      const today = Math.floor(now() / DAY_MS);
      if (today !== day) {
        day = today;
        calls = 0;
      }
      if (options.dailyBudget > 0 && calls >= options.dailyBudget) {
        return { ok: false, why: 'over budget', detail: `${options.dailyBudget} calls a day used` };
      }
      try {
        const verdict = await policy.execute(({ signal }) => {
          calls++;
          return adapter.classify(input, signal);
        });
        return { ok: true, verdict };
      } catch (err) {
        if (err instanceof BrokenCircuitError) {
          return { ok: false, why: 'circuit open', detail: `${options.failuresToOpen} failures in a row` };
        }
        if (err instanceof TaskCancelledError) {
          return { ok: false, why: 'timeout', detail: `no answer in ${options.timeoutMs} ms` };
        }
        if (err instanceof BadAnswerError) return { ok: false, why: 'bad answer', detail: err.message };
        return { ok: false, why: 'outage', detail: err instanceof Error ? err.message : String(err) };
      }
    },
    state: () => ({ callsToday: calls, circuit: CIRCUIT[breaker.state] ?? 'closed' }),
  };
}

/** POSTs JSON and returns the parsed answer; a status other than 2xx or a body that is not JSON throws. */
export async function postJson(url: string, body: unknown, headers: Record<string, string>, signal: AbortSignal) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json', ...headers },
    body: JSON.stringify(body),
    signal,
  });
  if (!res.ok) {
    // the body is drained (the connection can be reused) but not shown: it may echo the request
    await res.arrayBuffer().catch(() => undefined);
    throw new Error(`HTTP ${res.status}`);
  }
  try {
    return (await res.json()) as unknown;
  } catch {
    throw new BadAnswerError('the answer is not JSON');
  }
}
