// Change notifications: every write that can change what a reader sees
// announces it here, so caches (response cache, key cache) drop exactly what
// went stale. An instance announces its own writes at once; other processes'
// writes arrive from the store itself: PostgreSQL's triggers notify every
// listening instance (src/store/change-listener.ts), and SQLite's
// `data_version` reveals another process's commit (`externalWriteDetector`).
// The workers of one `serve --workers N` also tell each other of their own
// writes at once, through the cluster's primary (src/cluster/change-relay.ts):
// each change says where it came from, so only this process's own are relayed.
import { EventEmitter } from 'node:events';

export type Change =
  /** posts, feeds, wall fields or product tags of this wall changed */
  | { kind: 'wall'; wallId: number }
  /** account-wide: plan, limit, keys, or products (which appear on many walls) */
  | { kind: 'account'; accountId: number }
  /** anything may have changed (e.g. missed messages after a reconnect): drop every cache */
  | { kind: 'all' };

/**
 * Where a change was heard: `self`, this process's own write; `store`, the
 * store's notification (PostgreSQL) of any process's write; `peer`, a sibling
 * worker's write relayed by the cluster's primary.
 */
export type ChangeOrigin = 'self' | 'store' | 'peer';

export type ChangeSubscriber = (change: Change, origin: ChangeOrigin) => void;

export class ChangeBus {
  private readonly emitter = new EventEmitter();

  constructor() {
    this.emitter.setMaxListeners(100);
  }

  wallChanged(wallId: number): void {
    this.publish({ kind: 'wall', wallId });
  }

  accountChanged(accountId: number): void {
    this.publish({ kind: 'account', accountId });
  }

  publish(change: Change, origin: ChangeOrigin = 'self'): void {
    this.emitter.emit('change', change, origin);
  }

  subscribe(listener: ChangeSubscriber): () => void {
    this.emitter.on('change', listener);
    return () => this.emitter.off('change', listener);
  }
}
