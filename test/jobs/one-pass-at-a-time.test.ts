// OnePassAtATime: passes never overlap; kicks during a pass fold into one more pass after it; an error is reported, not thrown.
import { describe, expect, it } from 'vitest';
import { OnePassAtATime } from '../../src/jobs/one-pass-at-a-time.js';

function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

describe('OnePassAtATime', () => {
  it('runs one pass at a time; kicks during a pass give exactly one more pass after it', async () => {
    let running = 0;
    let most = 0;
    let passes = 0;
    const first = gate();
    const runner = new OnePassAtATime(
      async () => {
        running++;
        most = Math.max(most, running);
        passes++;
        if (passes === 1) await first.opened;
        running--;
      },
      () => undefined,
    );
    const kicked = runner.kick();
    expect(runner.current).not.toBeNull();
    // three kicks while the first pass waits: one more pass, not three
    void runner.kick();
    void runner.kick();
    const last = runner.kick();
    first.open();
    await Promise.all([kicked, last]);
    expect(passes).toBe(2);
    expect(most).toBe(1);
    expect(runner.current).toBeNull();
  });

  it('reports an error to its handler and is ready for the next kick', async () => {
    const errors: unknown[] = [];
    let fail = true;
    let ran = 0;
    const p = new OnePassAtATime(
      async () => {
        ran++;
        if (fail) throw new Error('boom');
      },
      (err) => errors.push(err),
    );
    await expect(p.kick()).resolves.toBeUndefined();
    expect(errors).toHaveLength(1);
    fail = false;
    await p.kick();
    expect(ran).toBe(2);
  });

  it('runs no further pass once stopped', async () => {
    let stopped = false;
    let ran = 0;
    const hold = gate();
    const p = new OnePassAtATime(
      async () => {
        ran++;
        await hold.opened;
      },
      () => undefined,
      () => stopped,
    );
    const running = p.kick();
    void p.kick();
    stopped = true;
    hold.open();
    await running;
    expect(ran).toBe(1);
  });
});
