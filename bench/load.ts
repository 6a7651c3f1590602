// One load case, run in its own process so the load generator never shares
// an event loop with the server it measures. Prints one JSON line.
import autocannon from 'autocannon';

interface Case {
  url: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  seconds: number;
  warmupSeconds: number;
  connections: number;
}

const spec = JSON.parse(process.argv[2] ?? '{}') as Case;

function run(seconds: number) {
  return autocannon({
    url: spec.url,
    method: spec.method ?? 'GET',
    headers: spec.headers,
    body: spec.body,
    connections: spec.connections,
    duration: seconds,
  });
}

if (spec.warmupSeconds > 0) await run(spec.warmupSeconds);
const r = await run(spec.seconds);
process.stdout.write(
  `${JSON.stringify({
    rps: r.requests.average,
    p50: r.latency.p50,
    p99: r.latency.p99,
    requests: r.requests.total,
    errors: r.errors + r.timeouts,
    non2xx: r.non2xx,
    bytesPerSec: r.throughput.average,
  })}\n`,
);
