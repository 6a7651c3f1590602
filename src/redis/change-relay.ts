// Carries change notifications between instances: every local change is
// published on one Redis channel, and changes from other instances are
// replayed on the local bus (so their caches drop stale entries too).
// Messages can be lost while a connection is down, so both directions fall
// back to "everything changed": after our subscriber reconnects we drop our
// own caches, and after a publish failed we tell every instance to drop
// theirs as soon as our publisher is back.
import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { Change, ChangeBus } from '../store/changes.js';

interface Envelope {
  from: string;
  change: Change;
}

export class RedisChangeRelay {
  private readonly id = randomUUID();
  private readonly unsubscribe: () => void;
  private readonly channel: string;
  /** a local change could not be published: broadcast "all" once reconnected */
  private owesBroadcast = false;
  /** set while re-emitting a change on the local bus, so it is not sent back out */
  private local = false;

  constructor(
    prefix: string,
    private readonly bus: ChangeBus,
    private readonly publisher: Redis,
    private readonly subscriber: Redis,
  ) {
    this.channel = `${prefix}:changes`;
    this.unsubscribe = bus.subscribe((change) => {
      if (!this.local) this.send(change);
    });
    subscriber.on('message', (_channel: string, raw: string) => {
      let message: Envelope;
      try {
        message = JSON.parse(raw) as Envelope;
      } catch {
        return;
      }
      if (message.from !== this.id) this.emitLocally(message.change);
    });
    // (Re)subscribe on every connect; what was sent meanwhile is lost.
    const onSubscriberReady = () => {
      subscriber.subscribe(this.channel).catch(() => undefined);
      this.emitLocally({ kind: 'all' });
    };
    subscriber.on('ready', onSubscriberReady);
    if (subscriber.status === 'ready') onSubscriberReady();
    publisher.on('ready', () => {
      if (this.owesBroadcast) this.send({ kind: 'all' });
    });
  }

  private send(change: Change): void {
    const message: Envelope = { from: this.id, change };
    this.publisher.publish(this.channel, JSON.stringify(message)).then(
      () => {
        if (change.kind === 'all') this.owesBroadcast = false;
      },
      () => {
        this.owesBroadcast = true;
      },
    );
  }

  private emitLocally(change: Change): void {
    this.local = true;
    try {
      this.bus.publish(change);
    } finally {
      this.local = false;
    }
  }

  close(): void {
    this.unsubscribe();
  }
}
