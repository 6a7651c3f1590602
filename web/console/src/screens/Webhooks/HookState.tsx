// An endpoint's state in words (active, failing with the last error and the
// next attempt, disabled), and one delivery attempt's outcome.
import { isOff } from '../../api/queries/webhooks';
import type { Delivery, Webhook } from '../../api/records';
import { When } from '../../ui/kit';

/** active / failing (with the last error and the next attempt) / disabled, in words. */
export function HookState({ hook }: { hook: Webhook }) {
  const state = isOff(hook) ? 'disabled' : hook.state;
  const badge = state === 'active' ? 'badge-ok' : state === 'failing' ? 'badge-warn' : 'badge-bad';
  return (
    <div className="hook-state">
      <span className={`badge ${badge}`} data-testid="hook-state">
        {state}
      </span>
      {state === 'failing' && (
        <span className="sub">
          {hook.consecutiveFailures} failed {hook.consecutiveFailures === 1 ? 'attempt' : 'attempts'} in a row; next
          attempt <When iso={hook.nextAttemptAt} empty="soon" />
        </span>
      )}
      {hook.state === 'disabled' && (
        <span className="sub">
          Gave up <When iso={hook.disabledAt} empty="" /> after 3 days of failures: Enable resumes from the first event
          not delivered.
        </span>
      )}
      {!hook.enabled && hook.state !== 'disabled' && <span className="sub">Turned off: no events are sent.</span>}
      {state !== 'active' && hook.lastError && (
        <span className="sub hook-error">
          Last error (<When iso={hook.lastErrorAt} />
          ): {hook.lastError}
        </span>
      )}
    </div>
  );
}

export function statusBadge(status: Delivery['status']) {
  const kind = status === 'delivered' ? 'badge-ok' : status === 'failed' ? 'badge-warn' : 'badge-bad';
  return <span className={`badge ${kind}`}>{status === 'gave_up' ? 'gave up' : status}</span>;
}

export function AttemptSummary({ attempt }: { attempt: Delivery }) {
  return (
    <dl className="stats attempt" data-testid="attempt">
      <div>
        <dt>Status</dt>
        <dd data-testid="attempt-status">{statusBadge(attempt.status)}</dd>
      </div>
      <div>
        <dt>HTTP code</dt>
        <dd>{attempt.httpStatus ?? '—'}</dd>
      </div>
      <div>
        <dt>Latency</dt>
        <dd>{attempt.latencyMs} ms</dd>
      </div>
      {attempt.error && (
        <div className="attempt-error">
          <dt>Error</dt>
          <dd>{attempt.error}</dd>
        </div>
      )}
    </dl>
  );
}
