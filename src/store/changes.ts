// Change notifications: every write that can change what a reader sees
// announces it here, so caches (response cache, key cache) drop exactly what
// went stale. In-process listeners today; a multi-instance deployment relays
// the same messages between instances.
import { EventEmitter } from 'node:events';

export type Change =
  /** posts, feeds, wall fields or product tags of this wall changed */
  | { kind: 'wall'; wallId: number }
  /** account-wide: plan, limit, keys, or products (which appear on many walls) */
  | { kind: 'account'; accountId: number }
  /** anything may have changed (e.g. missed messages after a reconnect): drop every cache */
  | { kind: 'all' };

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

  publish(change: Change): void {
    this.emitter.emit('change', change);
  }

  subscribe(listener: (change: Change) => void): () => void {
    this.emitter.on('change', listener);
    return () => this.emitter.off('change', listener);
  }
}
