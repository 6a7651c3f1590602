// The Grafana dashboard (ops/grafana/wallery.json) queries exactly the
// metrics Wallery exposes: every panel's PromQL is parsed by Prometheus's own
// grammar (@prometheus-io/lezer-promql), and every metric it selects — with
// the label names it matches or groups on — must be in a real /metrics scrape
// of a runtime built as `wallery serve` builds it, after some traffic. A
// misspelt name must be caught: the check is run on one too.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SyntaxNode } from '@lezer/common';
import { parser } from '@prometheus-io/lezer-promql';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { openRuntime, type Runtime } from '../../src/runtime.js';
import { scrape, type Scrape } from '../helpers/metrics.js';
import { ROOT } from '../helpers/cli.js';
import { makeTempDir, removeDir } from '../helpers/server.js';

interface Panel {
  title?: string;
  type: string;
  targets?: { expr: string }[];
  panels?: Panel[];
}

const dashboard = JSON.parse(readFileSync(join(ROOT, 'ops/grafana/wallery.json'), 'utf8')) as {
  panels: Panel[];
  templating: { list: { name: string; query?: unknown }[] };
};

/** Every query of the dashboard: panels (rows' too) and the template variables' label_values(). */
function queries(): { where: string; expr: string }[] {
  const walk = (panels: Panel[]): { where: string; expr: string }[] =>
    panels.flatMap((p) => [
      ...(p.targets ?? []).map((t) => ({ where: p.title ?? p.type, expr: t.expr })),
      ...walk(p.panels ?? []),
    ]);
  return walk(dashboard.panels);
}

/** Grafana's variables as Prometheus would receive them once Grafana substituted them. */
const substituted = (expr: string) =>
  expr
    .replace(/\$__rate_interval/g, '5m')
    .replace(/\$instance/g, '.*')
    .replace(/\$__interval/g, '1m');

interface Selected {
  metric: string;
  labels: string[];
}

/** The metrics a PromQL expression selects (with the labels it matches on), or the syntax errors found. */
function selected(expr: string): { errors: string[]; selectors: Selected[]; grouping: string[] } {
  const tree = parser.parse(expr);
  const errors: string[] = [];
  const selectors: Selected[] = [];
  const grouping: string[] = [];
  const text = (n: SyntaxNode) => expr.slice(n.from, n.to);
  tree.iterate({
    enter(ref) {
      if (ref.type.isError) errors.push(`syntax error at ${ref.from}: ${expr.slice(ref.from, ref.from + 30)}`);
      if (ref.name === 'VectorSelector') {
        const node = ref.node;
        const id = node.getChild('Identifier');
        const matchers = node.getChild('LabelMatchers');
        const labels = matchers
          ? matchers
              .getChildren('UnquotedLabelMatcher')
              .map((m) => m.getChild('LabelName'))
              .filter((n): n is SyntaxNode => n !== null)
              .map(text)
          : [];
        if (id) selectors.push({ metric: text(id), labels });
      }
      if (ref.name === 'GroupingLabels') {
        for (const n of ref.node.getChildren('LabelName')) grouping.push(text(n));
      }
    },
  });
  return { errors, selectors, grouping };
}

/** The series name a selector names, as a scrape lists it: a histogram's _bucket/_sum/_count are its family's. */
function family(s: Scrape, metric: string): string | null {
  if (s.families.has(metric)) return metric;
  const base = metric.replace(/_(bucket|sum|count)$/, '');
  return base !== metric && s.families.get(base)?.type === 'HISTOGRAM' ? base : null;
}

/** What in a query the scrape does not have: unknown metrics, label names no metric of the scrape carries. */
function problems(s: Scrape, labelNames: Map<string, Set<string>>, expr: string): string[] {
  const { errors, selectors, grouping } = selected(substituted(expr));
  const out = [...errors];
  if (selectors.length === 0) out.push('selects no metric');
  const known = new Set<string>(['le', 'instance', 'job']);
  for (const { metric, labels } of selectors) {
    const name = family(s, metric);
    if (!name) {
      out.push(`unknown metric ${metric}`);
      continue;
    }
    const own = labelNames.get(name) ?? new Set();
    for (const l of own) known.add(l);
    for (const l of labels) if (!own.has(l) && l !== 'instance' && l !== 'job') out.push(`${metric} has no label ${l}`);
  }
  for (const l of grouping) if (!known.has(l)) out.push(`grouping by ${l}, which no selected metric has`);
  return out;
}

describe('the Grafana dashboard (ops/grafana/wallery.json)', () => {
  let dir: string;
  let runtime: Runtime<FastifyInstance>;
  let s: Scrape;
  let labelNames: Map<string, Set<string>>;

  beforeAll(async () => {
    dir = makeTempDir();
    const config = loadConfig({ DATABASE_URL: join(dir, 'wallery.db'), LOG_LEVEL: 'silent' });
    runtime = await openRuntime(config, { server: { logger: false }, ingest: true, webhooks: true, media: true });
    await runtime.app.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(runtime.app.server.address() as { port: number }).port}`;
    for (const path of ['/healthz', '/api/v2/widget/posts/1?user_key=nope', '/nowhere'])
      await (await fetch(`${base}${path}`)).arrayBuffer();
    s = await scrape(`${base}/metrics`);
    // label names per family, from the registry the scrape was rendered from (histograms' included)
    labelNames = new Map();
    for (const m of await runtime.ctx.metrics!.registry.getMetricsAsJSON()) {
      const names = new Set<string>();
      for (const v of m.values) for (const l of Object.keys(v.labels)) names.add(l);
      // a labelled metric with no series yet still declares its labels
      for (const l of (runtime.ctx.metrics!.registry.getSingleMetric(m.name) as unknown as { labelNames?: string[] })
        .labelNames ?? [])
        names.add(l);
      labelNames.set(m.name, names);
    }
  });

  afterAll(async () => {
    await runtime?.close();
    if (dir) removeDir(dir);
  });

  it('has panels for every part the operations section names', () => {
    const titles = queries().map((q) => q.where);
    for (const title of [
      'Request rate per route family',
      'Error rate (5xx share) per route family',
      'Latency p50 / p95 / p99 per route family',
      'Cache hit ratio',
      'Quota refusals',
      'Feed polls by result',
      'Poll lag per feed state',
      'Webhook backlog',
      'SSE streams open',
      'PostgreSQL pool',
      'Query latency p95 per kind',
      'Event-loop delay',
      'Heap',
      'Approval queue by reason',
      'Image check',
    ])
      expect(titles).toContain(title);
  });

  it('queries only metrics and labels a real scrape has', () => {
    const found = queries().flatMap((q) => problems(s, labelNames, q.expr).map((p) => `${q.where}: ${p}`));
    expect(found).toEqual([]);
    // and the instance variable's query too
    const variable = dashboard.templating.list.find((v) => v.name === 'instance')!;
    const query = (variable.query as { query: string }).query;
    const metric = /label_values\((\w+),/.exec(query)![1]!;
    expect(family(s, metric)).not.toBeNull();
  });

  it('catches a misspelt metric, a label a metric does not have, and broken PromQL', () => {
    const ok = 'sum by (route) (rate(wallery_http_request_duration_seconds_count{status_class="5xx"}[5m]))';
    expect(problems(s, labelNames, ok)).toEqual([]);
    expect(problems(s, labelNames, ok.replace('duration_seconds', 'duration_second'))).toContain(
      'unknown metric wallery_http_request_duration_second_count',
    );
    // a histogram's series only under its own suffixes
    expect(problems(s, labelNames, 'rate(wallery_cache_hits_total_count[5m])')).toEqual([
      'unknown metric wallery_cache_hits_total_count',
    ]);
    expect(problems(s, labelNames, ok.replace('status_class=', 'status='))).toEqual([
      'wallery_http_request_duration_seconds_count has no label status',
    ]);
    expect(problems(s, labelNames, 'sum(rate(wallery_cache_hits_total[5m])')[0]).toMatch(/^syntax error/);
    expect(problems(s, labelNames, 'sum by (cash) (wallery_cache_entries)')).toEqual([
      'grouping by cash, which no selected metric has',
    ]);
  });
});
