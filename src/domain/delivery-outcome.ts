// What a webhook delivery attempt's outcome says to whoever reads the
// delivery log, a test or a replay (any role reads the log): delivered, or
// failed with the HTTP status the endpoint answered — and, when no answer
// came, one sentence whatever the cause. A refused connection, a socket the
// other side closed, a timeout, a DNS error and an address the network policy
// refuses all read alike, so that sending test events to chosen addresses
// maps no ports and no internal names. The cause goes to the operator's log.

/** The error of every attempt that got no HTTP answer. */
export const NO_ANSWER = 'no HTTP answer: the connection failed or timed out (the operator log has the cause)';

/** The error of an attempt answered with a non-2xx `status`. */
export function answeredError(status: number): string {
  return status >= 300 && status < 400
    ? `the endpoint answered ${status} (redirects are not followed)`
    : `the endpoint answered ${status}`;
}

const ANSWERED = /^the endpoint answered \d{3}(?: \(redirects are not followed\))?$/;

/**
 * A stored error as it is shown: an HTTP answer's as it is, anything else
 * (a socket error text stored before this rule, say) as NO_ANSWER.
 */
export function shownError(stored: string | null): string | null {
  if (stored === null) return null;
  return ANSWERED.test(stored) ? stored : NO_ANSWER;
}
