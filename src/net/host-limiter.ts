// Per-host concurrency and pauses of outbound requests.
import Bottleneck from 'bottleneck';

/** Raised instead of a request while a host asked us to wait (429, exhausted rate limit). */
export class HostPausedError extends Error {
  override name = 'HostPausedError';
  constructor(
    readonly host: string,
    readonly until: number,
  ) {
    super(`${host} asked to wait until ${new Date(until).toISOString()}`);
  }
}

/**
 * At most `concurrency` requests in flight per host (a Bottleneck group, one
 * limiter per host), and a per-host pause that a 429 or an exhausted rate
 * limit sets, so that every feed on that host waits, not only the one that hit it.
 */
export class HostLimiter {
  private readonly group: Bottleneck.Group;
  private readonly pausedUntil = new Map<string, number>();

  constructor(
    concurrency: number,
    private readonly now: () => number = Date.now,
  ) {
    this.group = new Bottleneck.Group({ maxConcurrent: concurrency });
  }

  async schedule<T>(host: string, fn: () => Promise<T>): Promise<T> {
    this.checkPause(host);
    return this.group.key(host).schedule(() => {
      this.checkPause(host);
      return fn();
    });
  }

  pause(host: string, until: number): void {
    if (until > (this.pausedUntil.get(host) ?? 0)) this.pausedUntil.set(host, until);
  }

  pauseOf(host: string): number | null {
    const until = this.pausedUntil.get(host);
    if (until === undefined) return null;
    if (until <= this.now()) {
      this.pausedUntil.delete(host);
      return null;
    }
    return until;
  }

  private checkPause(host: string) {
    const until = this.pauseOf(host);
    if (until !== null) throw new HostPausedError(host, until);
  }

  async close(): Promise<void> {
    await this.group.disconnect();
  }
}
