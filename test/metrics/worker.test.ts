// `wallery worker` has no API to serve /metrics on: with METRICS_PORT it
// listens for scrapes on a port of its own (same METRICS_TOKEN rule), so the
// ingestion and webhook delivery it runs can be watched. A real worker
// process, scraped over real HTTP.
import type { ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCli } from '../helpers/cli.js';
import { scrape } from '../helpers/metrics.js';
import { makeTempDir, removeDir } from '../helpers/server.js';

const TOKEN = 'worker-metrics-token-0123456789';

function exited(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) resolve(child.exitCode);
    else child.once('exit', (code) => resolve(code));
  });
}

describe('wallery worker with METRICS_PORT', () => {
  let dir: string;
  let child: ChildProcess;
  let url: string;

  beforeAll(async () => {
    dir = makeTempDir();
    const started = await startCli(
      ['worker'],
      {
        DATABASE_URL: join(dir, 'wallery.db'),
        METRICS_PORT: '0',
        METRICS_TOKEN: TOKEN,
        HOST: '127.0.0.1',
        LOG_LEVEL: 'warn',
      },
      /metrics on (http:\/\/127\.0\.0\.1:\d+\/metrics)\n[^]*polling feeds/,
    );
    child = started.child;
    url = /metrics on (http:\/\/127\.0\.0\.1:\d+\/metrics)/.exec(started.output())![1]!;
  });

  afterAll(async () => {
    if (child && child.exitCode === null) {
      child.kill('SIGTERM');
      await exited(child);
    }
    if (dir) removeDir(dir);
  });

  it('serves the ingestion, webhook, store and process metrics', async () => {
    const s = await scrape(url, { authorization: `Bearer ${TOKEN}` });
    for (const name of [
      'wallery_ingest_polls_total',
      'wallery_ingest_items_total',
      'wallery_ingest_feeds',
      'wallery_ingest_poll_lag_seconds',
      'wallery_webhook_deliveries_total',
      'wallery_webhook_backlog_events',
      'wallery_store_query_duration_seconds',
      'nodejs_eventloop_lag_p99_seconds',
      'nodejs_gc_duration_seconds',
    ])
      expect(s.families.has(name), name).toBe(true);
    expect(s.value('wallery_ingest_feeds', { state: 'healthy' })).toBe(0);
    expect(s.value('wallery_webhook_backlog_events')).toBe(0);
    // no API here: no SSE hub, no caches
    expect(s.value('wallery_sse_streams_open')).toBe(0);
    expect(s.value('wallery_cache_hits_total', { cache: 'response' })).toBeUndefined();
  });

  it('asks for the token, and answers nothing else', async () => {
    const refused = await fetch(url);
    expect(refused.status).toBe(401);
    expect(await refused.json()).toMatchObject({ responseCode: 401 });
    const other = await fetch(url.replace(/\/metrics$/, '/api/v2/widget/posts/1'));
    expect(other.status).toBe(404);
    await other.arrayBuffer();
  });

  it('stops on SIGTERM', async () => {
    child.kill('SIGTERM');
    expect(await exited(child)).toBe(0);
  });
});
