// The jobs of a worker that leases items (feeds, webhook endpoints).
import { describe, expect, it } from 'vitest';
import { eventually } from '../helpers/poll.js';
import { LeasedJobs } from '../../src/jobs/leased-jobs.js';

describe('LeasedJobs', () => {
  /** A job that runs until `release` is called (or the jobs' signal aborts, when `abortable`). */
  const gate = () => {
    let release!: (v: string) => void;
    const done = new Promise<string>((resolve) => (release = resolve));
    return { done, release };
  };

  it('runs one job per item at a time: asking again joins the job in flight; at most `concurrency` at once', async () => {
    const jobs = new LeasedJobs<string>(2);
    let started = 0;
    const gates = [gate(), gate(), gate()];
    const job = (i: number) => () => {
      started++;
      return gates[i]!.done;
    };
    const first = jobs.run(1, job(0), () => 'crashed');
    const again = jobs.run(1, job(1), () => 'crashed');
    expect(again).toBe(first);
    const second = jobs.run(2, job(1), () => 'crashed');
    const third = jobs.run(3, job(2), () => 'crashed');
    await eventually(
      'two jobs started',
      async () => started,
      (n) => n === 2,
      5000,
    );
    expect(jobs.has(3)).toBe(true);
    gates[0]!.release('one');
    expect(await first).toBe('one');
    expect(jobs.has(1)).toBe(false);
    await eventually(
      'the third started once a place was free',
      async () => started,
      (n) => n === 3,
      5000,
    );
    gates[1]!.release('two');
    gates[2]!.release('three');
    expect([await second, await third]).toEqual(['two', 'three']);
  });

  it("turns a job's throw into its result, and frees the item", async () => {
    const jobs = new LeasedJobs<string>(1);
    const result = await jobs.run(
      7,
      () => Promise.reject(new Error('boom')),
      (err) => `crashed: ${(err as Error).message}`,
    );
    expect(result).toBe('crashed: boom');
    expect(jobs.has(7)).toBe(false);
  });

  it('stop aborts the signal and waits for every job, a queued one seeing `stopped`; no tick starts after', async () => {
    const jobs = new LeasedJobs<string>(1);
    const untilAborted = () =>
      new Promise<string>((resolve) => {
        if (jobs.signal.aborted) resolve('gave its lease back');
        else jobs.signal.addEventListener('abort', () => resolve('gave its lease back'));
      });
    const running = jobs.run(1, untilAborted, () => 'crashed');
    const queued = jobs.run(
      2,
      async () => (jobs.stopped ? 'skipped: stopping' : 'ran'),
      () => 'crashed',
    );
    expect(await jobs.stop()).toBe(true);
    expect(jobs.signal.aborted).toBe(true);
    expect(jobs.has(1) || jobs.has(2)).toBe(false);
    expect([await running, await queued]).toEqual(['gave its lease back', 'skipped: stopping']);
    expect(jobs.stopped).toBe(true);
    expect(await jobs.stop()).toBe(false);
    expect(
      jobs.startTicking(
        1000,
        async () => undefined,
        () => undefined,
      ),
    ).toBe(false);
    expect(jobs.ticking).toBe(false);
  });
});
