// The periodic tick of a worker (feed polling, webhook delivery).
import { AsyncTask, SimpleIntervalJob, ToadScheduler } from 'toad-scheduler';

/** Runs `tick` every `everyMs` (first run at once), never two at a time. */
export class Ticker {
  private readonly scheduler = new ToadScheduler();

  constructor(everyMs: number, tick: () => Promise<void>, onError: (err: Error) => void) {
    const task = new AsyncTask('ingest-tick', tick, onError);
    this.scheduler.addSimpleIntervalJob(
      new SimpleIntervalJob({ milliseconds: everyMs, runImmediately: true }, task, {
        id: 'ingest-tick',
        preventOverrun: true,
      }),
    );
  }

  stop(): void {
    this.scheduler.stop();
  }
}
