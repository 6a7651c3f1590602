#!/usr/bin/env node
// The `wallery` command. With OTEL_EXPORTER_OTLP_ENDPOINT set, OpenTelemetry
// starts first: its instrumentations patch `http` and `pg` as they are
// loaded, so nothing that loads them may be imported before it — hence only
// dynamic imports after this point. Unset, the SDK is never loaded at all.
import { ConfigError, parseOtlpEndpoint } from '../config.js';

/** The commands that serve or work for long; a one-shot command is not traced. */
const TRACED = new Set(['serve', 'start', 'worker', 'ingest']);

try {
  if (TRACED.has(process.argv[2] ?? '') && parseOtlpEndpoint(process.env.OTEL_EXPORTER_OTLP_ENDPOINT) !== null) {
    const { startTracing } = await import('../tracing.js');
    const { beforeExit } = await import('./exit-hooks.js');
    const sdk = startTracing();
    // the spans still batched go out on a graceful shutdown
    beforeExit(() => sdk.shutdown());
  }
} catch (err) {
  if (!(err instanceof ConfigError)) throw err;
  process.stderr.write(`wallery: ${err.message}\n`);
  process.exit(1);
}
await import('./program.js');
