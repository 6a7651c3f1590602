// Reading a `/metrics` scrape in tests: fetched over HTTP, parsed by a real
// parser of Prometheus's text format (parse-prometheus-text-format), looked
// up by name and labels. That parser folds the series of a histogram into
// one, so a histogram's counts per label are read from the registry the
// scrape was rendered from (`histogramCount`).
import parsePrometheusTextFormat, { type PrometheusFamily } from 'parse-prometheus-text-format';
import type { Registry } from 'prom-client';

export interface Scrape {
  text: string;
  families: Map<string, PrometheusFamily>;
  /** the value of the series of `name` whose labels include `labels` (a counter's or gauge's); undefined: none */
  value(name: string, labels?: Record<string, string>): number | undefined;
  /** every label value in the scrape */
  labelValues(): string[];
}

export async function scrape(url: string, headers: Record<string, string> = {}): Promise<Scrape> {
  const res = await fetch(url, { headers });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`scrape of ${url} answered ${res.status}: ${text}`);
  return parseScrape(text);
}

export function parseScrape(text: string): Scrape {
  const families = new Map(parsePrometheusTextFormat(text).map((f) => [f.name, f]));
  const find = (name: string, labels: Record<string, string>) =>
    families.get(name)?.metrics.find((m) => Object.entries(labels).every(([k, v]) => m.labels?.[k] === v));
  return {
    text,
    families,
    value(name, labels = {}) {
      const m = find(name, labels);
      return m?.value === undefined ? undefined : Number(m.value);
    },
    labelValues() {
      return [...families.values()].flatMap((f) => f.metrics.flatMap((m) => Object.values(m.labels ?? {})));
    },
  };
}

/** Observations of the series of histogram `name` whose labels include `labels`, summed (in-process registries). */
export async function histogramCount(
  registry: Registry,
  name: string,
  labels: Record<string, string>,
): Promise<number> {
  const metric = (await registry.getMetricsAsJSON()).find((m) => m.name === name);
  if (!metric) throw new Error(`no metric ${name}`);
  return metric.values
    .filter((v) => (v as { metricName?: string }).metricName === `${name}_count`)
    .filter((v) => Object.entries(labels).every(([k, want]) => String(v.labels[k]) === want))
    .reduce((n, v) => n + v.value, 0);
}

/** Every label value of every series in an in-process registry (histograms' included). */
export async function registryLabelValues(registry: Registry): Promise<string[]> {
  return (await registry.getMetricsAsJSON()).flatMap((m) =>
    m.values.flatMap((v) => Object.entries(v.labels).flatMap(([k, value]) => (k === 'le' ? [] : [String(value)]))),
  );
}
