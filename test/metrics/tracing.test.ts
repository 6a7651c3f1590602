// OpenTelemetry: a real `wallery serve` with OTEL_EXPORTER_OTLP_ENDPOINT set
// exports its spans over OTLP/HTTP (JSON bodies here, OTEL_EXPORTER_OTLP_PROTOCOL
// =http/json) to a receiver this test runs: a server span per request, named
// after the route pattern with its status, no user key in any of it; on
// PostgreSQL a span per query too.
import type { ChildProcess } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCli } from '../helpers/cli.js';
import { eventually } from '../helpers/poll.js';
import { makeTempDir, removeDir } from '../helpers/server.js';
import { createTestDatabase, dropTestDatabase, postgresReachable } from '../helpers/services.js';

const KEY = 'Tracing-secret-key-0001';
const ci = process.env.CI === 'true' || process.env.CI === '1';
const pgUp = await postgresReachable();
if (!pgUp && !ci) console.warn('[wallery] skipping the PostgreSQL tracing test: PostgreSQL not reachable');

interface OtlpValue {
  stringValue?: string;
  intValue?: number | string;
}
interface OtlpSpan {
  name: string;
  kind: number;
  attributes: { key: string; value: OtlpValue }[];
}
interface OtlpBody {
  resourceSpans: {
    resource: { attributes: { key: string; value: OtlpValue }[] };
    scopeSpans: { scope: { name: string }; spans: OtlpSpan[] }[];
  }[];
}

const SERVER = 2;
const attr = (span: OtlpSpan, key: string) => {
  const v = span.attributes.find((a) => a.key === key)?.value;
  return v?.stringValue ?? (v?.intValue === undefined ? undefined : Number(v.intValue));
};

/** An OTLP/HTTP trace receiver: every body posted to /v1/traces, as received. */
async function startReceiver(): Promise<{ url: string; bodies: string[]; server: Server }> {
  const bodies: string[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      if (req.method === 'POST' && req.url === '/v1/traces') bodies.push(body);
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}`, bodies, server };
}

function exited(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) resolve(child.exitCode);
    else child.once('exit', (code) => resolve(code));
  });
}

function spansOf(bodies: string[]): { scope: string; span: OtlpSpan; service?: string }[] {
  return bodies.flatMap((text) =>
    (JSON.parse(text) as OtlpBody).resourceSpans.flatMap((rs) =>
      rs.scopeSpans.flatMap((ss) =>
        ss.spans.map((span) => ({
          scope: ss.scope.name,
          span,
          service: rs.resource.attributes.find((a) => a.key === 'service.name')?.value.stringValue,
        })),
      ),
    ),
  );
}

function tracedServe(databaseUrl: () => Promise<{ url: string; drop(): Promise<void> }>) {
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let child: ChildProcess;
  let base: string;
  let drop: () => Promise<void>;

  beforeAll(async () => {
    receiver = await startReceiver();
    const db = await databaseUrl();
    drop = db.drop;
    const started = await startCli(
      ['serve'],
      {
        DATABASE_URL: db.url,
        PORT: '0',
        HOST: '127.0.0.1',
        INGEST: 'off',
        WEBHOOKS: 'off',
        LOG_LEVEL: 'warn',
        OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
        OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
        OTEL_BSP_SCHEDULE_DELAY: '50',
      },
      /wallery listening on http:\/\/127\.0\.0\.1:\d+/,
    );
    child = started.child;
    base = /wallery listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(started.output())![1]!;
    // scrapes and probes first: they are not traced
    for (const path of ['/metrics', '/healthz'])
      expect((await fetch(`${base}${path}`).then(async (r) => (await r.arrayBuffer(), r))).status).toBe(200);
    const res = await fetch(`${base}/api/v2/widget/posts/1?user_key=${KEY}`);
    expect(res.status).toBe(401);
    await res.arrayBuffer();
  });

  afterAll(async () => {
    if (child && child.exitCode === null) {
      child.kill('SIGTERM');
      await exited(child);
    }
    receiver?.server.close();
    await drop?.();
  });

  return {
    spans: async () => {
      await eventually(
        'a server span exported',
        async () => spansOf(receiver.bodies),
        (spans) => spans.some((s) => s.span.kind === SERVER && attr(s.span, 'http.route') !== undefined),
        60_000,
      );
      return spansOf(receiver.bodies);
    },
    bodies: () => receiver.bodies,
  };
}

describe('tracing with OTEL_EXPORTER_OTLP_ENDPOINT (SQLite)', () => {
  const dir = makeTempDir();
  const traced = tracedServe(async () => ({ url: join(dir, 'wallery.db'), drop: async () => removeDir(dir) }));

  it('exports a server span per request, named after the route, with its status', async () => {
    const spans = await traced.spans();
    const server = spans.find((s) => s.span.kind === SERVER && attr(s.span, 'http.route') !== undefined)!;
    expect(server.scope).toBe('@opentelemetry/instrumentation-http');
    expect(server.service).toBe('wallery');
    expect(server.span.name).toBe('GET /api/v2/widget/posts/:wall_id');
    expect(attr(server.span, 'http.route')).toBe('/api/v2/widget/posts/:wall_id');
    expect(attr(server.span, 'http.response.status_code')).toBe(401);
    // Fastify's own spans: the request and its hooks
    expect(spans.some((s) => s.scope === '@fastify/otel' && s.span.name === 'request')).toBe(true);
    // the scrape and the probe made before it were not traced
    const servers = spans.filter((s) => s.span.kind === SERVER);
    expect(servers.map((s) => attr(s.span, 'url.path'))).toEqual(['/api/v2/widget/posts/1']);
  });

  it('never exports the user key', async () => {
    await traced.spans();
    expect(traced.bodies().length).toBeGreaterThan(0);
    for (const body of traced.bodies()) expect(body).not.toContain(KEY);
  });
});

describe.skipIf(!pgUp && !ci)('tracing with OTEL_EXPORTER_OTLP_ENDPOINT (PostgreSQL)', () => {
  const traced = tracedServe(async () => {
    const db = await createTestDatabase();
    return { url: db.url, drop: () => dropTestDatabase(db.name) };
  });

  it('exports a span per PostgreSQL query as well', async () => {
    await traced.spans();
    await eventually(
      'a query span exported',
      async () => spansOf(traced.bodies()),
      (spans) => spans.some((s) => s.scope === '@opentelemetry/instrumentation-pg'),
      60_000,
    );
    for (const body of traced.bodies()) expect(body).not.toContain(KEY);
  });
});
