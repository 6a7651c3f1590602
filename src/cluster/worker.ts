// A worker of `serve --workers N`: what it learns from the primary (its slot;
// whether it runs the background jobs), its quota and rate-limit counts kept
// by the primary when there is no Redis, and its writes told to the siblings.
import cluster from 'node:cluster';
import type { Server } from 'node:net';
import { Server as NetServer } from 'node:net';
import { ClusterQuota } from '../quota/cluster-quota.js';
import type { ChangeBus } from '../store/changes.js';
import type { Metrics } from '../metrics/metrics.js';
import { primaryRateLimitStore } from './rate-limit-store.js';
import { WorkerChannel } from './worker-channel.js';

export interface ClusterMember {
  /** 1…N */
  slot: number;
  /** feed ingestion, webhook delivery, media fetching and the provider check run here (slot 1 only) */
  jobs: boolean;
  /** the quota counted by the primary (used without Redis) */
  quota: ClusterQuota;
  /** Tells the siblings of this worker's own writes, and this worker of theirs. */
  relayChanges(changes: ChangeBus): void;
  /** Scrapes answer for every worker: this worker's metrics go to the siblings' scrapes, and its scrape gathers theirs. */
  shareMetrics(metrics: Metrics): void;
  /** What the primary asks: `retire` (a rolling restart) or `shutdown`; also `shutdown` when the primary is gone. */
  onLeave(handler: (how: 'retire' | 'shutdown') => void): void;
}

let member: { channel: WorkerChannel } | null = null;

/** In a worker of `serve --workers N`: its place in the cluster. Null in a process of its own. */
export async function joinCluster(): Promise<ClusterMember | null> {
  if (!cluster.isWorker) return null;
  const channel = new WorkerChannel();
  const role = await channel.ask({ wallery: 'hello' });
  if (role.wallery !== 'role') throw new Error('cluster: the primary did not say which slot this worker fills');
  member = { channel };
  const quota = new ClusterQuota({
    take: async (accountId, day, limit) => {
      const answer = await channel.ask({ wallery: 'quota-take', accountId, day, limit });
      return answer.wallery === 'quota-grant' ? answer : { granted: 0, used: limit };
    },
    giveBack: (accountId, day, calls) => channel.send({ wallery: 'quota-return', accountId, day, calls }),
    today: async (accountId, day, stored) => {
      const answer = await channel.ask({ wallery: 'quota-today', accountId, day, stored });
      return answer.wallery === 'quota-today' ? answer.calls : stored;
    },
    onRecall: (handler) =>
      channel.on('quota-recall', ({ id, accountId, day }) => {
        void channel.send({ wallery: 'quota-recalled', id, calls: handler(accountId, day) });
      }),
  });
  return {
    slot: role.slot,
    jobs: role.jobs,
    quota,
    relayChanges(changes) {
      changes.subscribe((change, origin) => {
        // `all` is what each process announces for itself (another process's
        // commit seen in SQLite's data_version, a PostgreSQL listener that
        // reconnected): the siblings see the same, nothing to relay
        if (origin === 'self' && change.kind !== 'all') void channel.send({ wallery: 'change', change });
      });
      channel.on('change', ({ change }) => changes.publish(change, 'peer'));
    },
    shareMetrics(metrics) {
      channel.on('metrics-collect', ({ id }) => {
        void metrics.snapshot().then((snapshot) => channel.send({ wallery: 'metrics-part', id, metrics: snapshot }));
      });
      metrics.gatherFromCluster(async () => {
        const answer = await channel.ask({ wallery: 'metrics-gather' });
        return answer.wallery === 'metrics-gathered' ? answer.parts : [await metrics.snapshot()];
      });
    },
    onLeave(handler) {
      channel.on('retire', () => handler('retire'));
      channel.on('shutdown', () => handler('shutdown'));
      // the primary died: nobody restarts or balances this worker any more
      process.once('disconnect', () => handler('shutdown'));
    },
  };
}

/** The rate-limit store counting at the primary under `name`; null outside a cluster worker. */
export function clusterRateLimitStore(name: string) {
  return member ? primaryRateLimitStore(member.channel, name) : null;
}

/**
 * Takes no new connection (the siblings on the shared socket take them) and
 * leaves the open ones be: http's own close() would also drop the idle
 * keep-alive connections, which a client may be sending on this moment.
 * The server's close() later does the rest.
 */
export function stopAccepting(server: Server): void {
  NetServer.prototype.close.call(server);
}
