// What the workers (feed ingestion, webhook delivery) log through, and a
// small JSON-lines logger for the worker and `ingest --once` (no HTTP server
// there to lend its pino logger): one JSON object per line on stderr, pino's
// field names and numeric levels, filtered by LOG_LEVEL.

/** The subset of a pino logger the workers use (Fastify's `app.log` fits). */
export interface WorkerLogger {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
  debug(obj: object, msg?: string): void;
}

/** Logs nothing: a worker's logger when none is given. */
export const silentLogger: WorkerLogger = { info() {}, warn() {}, error() {}, debug() {} };

const LEVELS = { trace: 10, debug: 20, info: 30, warn: 40, error: 50, fatal: 60, silent: Infinity } as const;
export type LogLevel = keyof typeof LEVELS;

function serialize(obj: object): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(obj)) {
    out[k] = v instanceof Error ? { type: v.name, message: v.message } : v;
  }
  return out;
}

export function jsonLogger(
  level: LogLevel,
  write: (line: string) => void = (l) => process.stderr.write(l),
): WorkerLogger {
  const min = LEVELS[level];
  const emit = (lvl: number) => (obj: object, msg?: string) => {
    if (lvl < min) return;
    write(
      `${JSON.stringify({ level: lvl, time: Date.now(), pid: process.pid, ...serialize(obj), ...(msg ? { msg } : {}) })}\n`,
    );
  };
  return { debug: emit(LEVELS.debug), info: emit(LEVELS.info), warn: emit(LEVELS.warn), error: emit(LEVELS.error) };
}
