// One endpoint's delivery log: every attempt, newest first, 25 at a time,
// read again every few seconds; Replay sends an attempt's event again.
import { useEffect, useRef, useState } from 'react';
import { rowsOf } from '../../api/queries/paging';
import { useDeliveryLog, useReplayDelivery } from '../../api/queries/webhooks';
import type { Webhook } from '../../api/records';
import { href } from '../../router';
import { Announce, Button, DataTable, ErrorNote, QueryRows, ShowMore, When } from '../../ui/kit';
import { statusBadge } from './HookState';

/** Every attempt of one endpoint, newest first, 25 at a time; Replay sends an attempt's event again (same id). */
export function DeliveryLog({ hook, accountId, mayReplay }: { hook: Webhook; accountId: number; mayReplay: boolean }) {
  const headingRef = useRef<HTMLHeadingElement>(null);
  const [said, setSaid] = useState('');
  // opened from a row's link: keyboard and screen reader users land on the log
  useEffect(() => headingRef.current?.focus(), []);
  const log = useDeliveryLog(hook);
  const replay = useReplayDelivery(hook, {
    onSuccess: (attempt) =>
      setSaid(
        `Replayed ${attempt.eventId}: ${attempt.status === 'delivered' ? 'delivered' : `${attempt.status}${attempt.error ? ` (${attempt.error})` : ''}`}.`,
      ),
  });
  const rows = rowsOf(log.data);
  return (
    <section className="panel" aria-labelledby="log-title">
      <div className="screen-head">
        <h2 id="log-title" ref={headingRef} tabIndex={-1}>
          Delivery log · <span className="mono hook-url">{hook.url}</span>
        </h2>
        <div className="actions">
          {/* never disabled: the log re-reads itself every few seconds, and a disabled button would drop focus */}
          <Button onClick={() => void log.refetch()}>Refresh log</Button>
          <a className="btn btn-secondary" href={href.webhooks(accountId)}>
            Close log
          </a>
        </div>
      </div>
      <p className="hint">
        Every attempt, newest first. An event keeps its id on every attempt and replay, so a receiver can drop what it
        already has.
      </p>
      <Announce message={said} />
      <ErrorNote error={replay.error} title="The delivery was not replayed" />
      <QueryRows
        query={log}
        what="the delivery log"
        rows={rows}
        empty="No deliveries yet: events after the webhook’s creation show here."
      >
        <DataTable
          className="grid-table deliveries"
          caption={`Delivery attempts to ${hook.url}, newest first`}
          columns={['Event', 'Status', 'HTTP', 'Latency', 'Attempt', 'When', 'Error', 'Actions']}
        >
          {rows.map((d) => (
            <tr key={d.id} data-delivery-id={d.id} data-event-id={d.eventId} data-status={d.status}>
              <th scope="row">
                <span className="mono">{d.type}</span>
                <span className="sub mono">
                  {d.eventId}
                  {d.replay ? ' · replay' : ''}
                </span>
              </th>
              <td data-label="Status">{statusBadge(d.status)}</td>
              <td data-label="HTTP" className="num">
                {d.httpStatus ?? '—'}
              </td>
              <td data-label="Latency" className="num">
                {d.latencyMs} ms
              </td>
              <td data-label="Attempt" className="num">
                {d.attempt}
              </td>
              <td data-label="When">
                <When iso={d.at} />
              </td>
              <td data-label="Error" className="hook-error">
                {d.error ?? '—'}
              </td>
              <td>
                {mayReplay && (
                  <Button onClick={() => !replay.isPending && replay.mutate(d)}>
                    Replay
                    <span className="sr-only">
                      {' '}
                      {d.eventId} (attempt {d.attempt})
                    </span>
                  </Button>
                )}
              </td>
            </tr>
          ))}
        </DataTable>
      </QueryRows>
      <ShowMore query={log}>Show older attempts</ShowMore>
    </section>
  );
}
