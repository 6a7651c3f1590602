// Settings from the environment: defaults, and a bad value named in one line.
import { describe, expect, it } from 'vitest';
import { ConfigError, DEFAULT_CACHE_TTL_MS, DEFAULT_MANAGE_WRITE_RATE_LIMIT, loadConfig } from '../src/config.js';

describe('CACHE_TTL_MS', () => {
  it('defaults to 5 s, so a change is seen everywhere within 5 s even when its notification is lost', () => {
    expect(DEFAULT_CACHE_TTL_MS).toBe(5000);
    expect(loadConfig({}).cacheTtlMs).toBe(5000);
    expect(loadConfig({ CACHE_TTL_MS: ' 250 ' }).cacheTtlMs).toBe(250);
  });

  it('refuses what is not a whole number of milliseconds from 100 to 3600000', () => {
    for (const value of ['0', '99', '3600001', '1.5', '-5', 'soon']) {
      expect(() => loadConfig({ CACHE_TTL_MS: value }), value).toThrow(ConfigError);
      expect(() => loadConfig({ CACHE_TTL_MS: value })).toThrow(
        /^CACHE_TTL_MS must be an integer from 100 to 3600000$/,
      );
    }
  });
});

describe('MANAGE_WRITE_RATE_LIMIT', () => {
  it('defaults to 1200 writes a minute per operator token; 0 turns the limit off', () => {
    expect(DEFAULT_MANAGE_WRITE_RATE_LIMIT).toBe(1200);
    expect(loadConfig({}).manageWriteRateLimit).toBe(1200);
    expect(loadConfig({ MANAGE_WRITE_RATE_LIMIT: '0' }).manageWriteRateLimit).toBe(0);
    expect(loadConfig({ MANAGE_WRITE_RATE_LIMIT: ' 20 ' }).manageWriteRateLimit).toBe(20);
    expect(() => loadConfig({ MANAGE_WRITE_RATE_LIMIT: 'many' })).toThrow(
      /^MANAGE_WRITE_RATE_LIMIT must be an integer from 0 to 1000000$/,
    );
  });
});

describe('PUBLIC_URL', () => {
  it('is the address people reach the instance at, without a trailing slash; absent: none', () => {
    expect(loadConfig({}).publicUrl).toBeNull();
    expect(loadConfig({ PUBLIC_URL: ' https://walls.example/ ' }).publicUrl).toBe('https://walls.example');
    expect(loadConfig({ PUBLIC_URL: 'http://10.0.0.5:8080/wallery/' }).publicUrl).toBe('http://10.0.0.5:8080/wallery');
  });

  it('refuses what is not a plain http(s) URL', () => {
    for (const value of [
      'walls.example',
      'ftp://walls.example',
      'https://walls.example/?a=1',
      'https://u:p@w.example',
    ]) {
      expect(() => loadConfig({ PUBLIC_URL: value }), value).toThrow(
        /^PUBLIC_URL must be an http:\/\/ or https:\/\/ URL/,
      );
    }
  });
});

describe('TRUST_PROXY', () => {
  it('off by default; on, a number of hops, or a list of addresses and ranges', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'off' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '0' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'on' }).trustProxy).toBe(true);
    expect(loadConfig({ TRUST_PROXY: '1' }).trustProxy).toBe(1);
    expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.1, 192.168.0.0/16,::1' }).trustProxy).toEqual([
      '10.0.0.1',
      '192.168.0.0/16',
      '::1',
    ]);
  });

  it('names the entry it cannot read', () => {
    expect(() => loadConfig({ TRUST_PROXY: '10.0.0.1,proxy.local' })).toThrow(
      /^TRUST_PROXY must be .*\(bad: proxy\.local\)$/,
    );
    expect(() => loadConfig({ TRUST_PROXY: '10.0.0.0/99' })).toThrow(/\(bad: 10\.0\.0\.0\/99\)$/);
    expect(() => loadConfig({ TRUST_PROXY: '101' })).toThrow(/^TRUST_PROXY must be an integer from 1 to 100$/);
  });
});

describe('SHUTDOWN_DELAY_MS and SHUTDOWN_TIMEOUT_MS', () => {
  it('default to no delay and a 10 s bound on in-flight work', () => {
    expect(loadConfig({}).shutdown).toEqual({ delayMs: 0, timeoutMs: 10_000 });
    expect(loadConfig({ SHUTDOWN_DELAY_MS: '5000', SHUTDOWN_TIMEOUT_MS: ' 30000 ' }).shutdown).toEqual({
      delayMs: 5000,
      timeoutMs: 30_000,
    });
  });

  it('refuses what is not a whole number of milliseconds in range, naming the variable', () => {
    for (const value of ['-1', '600001', '1.5', 'soon']) {
      expect(() => loadConfig({ SHUTDOWN_DELAY_MS: value }), value).toThrow(
        /^SHUTDOWN_DELAY_MS must be an integer from 0 to 600000$/,
      );
    }
    for (const value of ['0', '99', '3600001', 'ten']) {
      expect(() => loadConfig({ SHUTDOWN_TIMEOUT_MS: value }), value).toThrow(
        /^SHUTDOWN_TIMEOUT_MS must be an integer from 100 to 3600000$/,
      );
    }
  });
});

describe('PG_BIN_DIR', () => {
  it('names the folder of pg_dump and pg_restore for `wallery backup`/`restore`; absent: found on PATH', () => {
    expect(loadConfig({}).pgBinDir).toBeNull();
    expect(loadConfig({ PG_BIN_DIR: ' /usr/lib/postgresql/16/bin ' }).pgBinDir).toBe('/usr/lib/postgresql/16/bin');
  });

  it('refuses a relative path', () => {
    for (const value of ['bin', './pg/bin', '~/pg']) {
      expect(() => loadConfig({ PG_BIN_DIR: value }), value).toThrow(/^PG_BIN_DIR must be an absolute folder path/);
    }
  });
});

describe('METRICS, METRICS_TOKEN, METRICS_PORT', () => {
  it('on by default, no token, no worker port', () => {
    expect(loadConfig({}).metrics).toEqual({ enabled: true, token: null, port: null });
    expect(loadConfig({ METRICS: 'off' }).metrics.enabled).toBe(false);
    expect(loadConfig({ METRICS_TOKEN: ' s3cret-metrics-token-01 ' }).metrics.token).toBe('s3cret-metrics-token-01');
    expect(loadConfig({ METRICS_PORT: '9464' }).metrics.port).toBe(9464);
    expect(loadConfig({ METRICS_PORT: '0' }).metrics.port).toBe(0);
    expect(loadConfig({ METRICS_PORT: 'off' }).metrics.port).toBeNull();
  });

  it('refuses a bad value, naming it, without echoing a token', () => {
    expect(() => loadConfig({ METRICS: 'maybe' })).toThrow(/^METRICS must be on or off$/);
    for (const token of ['short', 'has a space in it 0123', 'ünïcödé-token-0123456'])
      expect(() => loadConfig({ METRICS_TOKEN: token })).toThrow(
        /^METRICS_TOKEN must be at least 16 printable characters without spaces$/,
      );
    for (const port of ['65536', '-1', 'http', '1.5'])
      expect(() => loadConfig({ METRICS_PORT: port }), port).toThrow(
        /^METRICS_PORT must be off or a port from 0 to 65535$/,
      );
  });
});

describe('OTEL_EXPORTER_OTLP_ENDPOINT', () => {
  it('absent: no tracing; an http(s) URL: tracing to it; anything else refused', () => {
    expect(loadConfig({}).tracing.endpoint).toBeNull();
    expect(loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' }).tracing.endpoint).toBe(
      'http://collector:4318',
    );
    for (const value of ['collector:4318', 'grpc://collector'])
      expect(() => loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: value }), value).toThrow(
        /^OTEL_EXPORTER_OTLP_ENDPOINT must be an http:\/\/ or https:\/\/ URL$/,
      );
  });
});

describe('RIGHTS_TICK_SECONDS and RIGHTS_LISTEN_SECONDS', () => {
  it('default to a tick every 30 s and a waiting request read every minute', () => {
    expect(loadConfig({}).rights).toEqual({ tickS: 30, listenS: 60, reportFont: null });
    expect(loadConfig({ RIGHTS_TICK_SECONDS: '1', RIGHTS_LISTEN_SECONDS: ' 5 ' }).rights).toEqual({
      tickS: 1,
      listenS: 5,
      reportFont: null,
    });
  });

  it('RIGHTS_REPORT_FONT: a .ttf or .otf file, else refused', () => {
    expect(loadConfig({ RIGHTS_REPORT_FONT: ' /fonts/NotoSans.TTF ' }).rights.reportFont).toBe('/fonts/NotoSans.TTF');
    expect(() => loadConfig({ RIGHTS_REPORT_FONT: '/fonts/noto.woff2' })).toThrow(
      /^RIGHTS_REPORT_FONT must be a \.ttf or \.otf file$/,
    );
  });

  it('refuses what is not a whole number of seconds in range, naming the variable', () => {
    for (const value of ['0', '3601', '1.5', 'soon'])
      expect(() => loadConfig({ RIGHTS_TICK_SECONDS: value }), value).toThrow(
        /^RIGHTS_TICK_SECONDS must be an integer from 1 to 3600$/,
      );
    for (const value of ['0', '86401', 'hourly'])
      expect(() => loadConfig({ RIGHTS_LISTEN_SECONDS: value }), value).toThrow(
        /^RIGHTS_LISTEN_SECONDS must be an integer from 1 to 86400$/,
      );
  });
});
