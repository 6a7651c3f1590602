// The layer rules and "no import cycles" of .dependency-cruiser.mjs (run by
// `npm run lint`), held against the real source and against a fixture tree that
// breaks each rule on purpose — so this fails if a rule stops catching anything.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { cruise, type ICruiseOptions, type ICruiseResult, type IViolation } from 'dependency-cruiser';
import extractDepcruiseOptions from 'dependency-cruiser/config-utl/extract-depcruise-options';
import extractTSConfig from 'dependency-cruiser/config-utl/extract-ts-config';

const root = fileURLToPath(new URL('../', import.meta.url));
const CONFIG = `${root}.dependency-cruiser.mjs`;
const KNOWN = `${root}.dependency-cruiser-known-violations.json`;
const FIXTURE = `${root}test/fixtures/architecture`;
// the roots `npm run lint:layers` cruises, read from its script so the two cannot
// drift apart (components are .tsx: a glob without it would skip them); web/
// counts from its first file
const LINT_LAYERS = (JSON.parse(readFileSync(`${root}package.json`, 'utf8')) as { scripts: Record<string, string> })
  .scripts['lint:layers']!;
const ROOTS = [/depcruise "([^"]+)"/.exec(LINT_LAYERS)![1]!];

async function run(baseDir: string, extra: Partial<ICruiseOptions> = {}): Promise<ICruiseResult> {
  const options = await extractDepcruiseOptions(CONFIG);
  const tsConfig = extractTSConfig(`${root}tsconfig.json`);
  const { output } = await cruise(ROOTS, { ...options, ...extra, baseDir }, {}, { tsConfig });
  return output as ICruiseResult;
}

/** A package by its name, wherever its node_modules folder and entry file are. */
const shortName = (module: string) => module.replace(/^.*node_modules\/((?:@[^/]+\/)?[^/]+)\/.*$/, 'npm:$1');

/** "rule: from → to", the way `depcruise` prints a violation; a cycle lists every module in it. */
function describeViolation(v: IViolation): string {
  const path = v.cycle ? [v.from, ...v.cycle.map((m) => m.name)] : [v.from, v.to];
  return `${v.rule.name}: ${path.map(shortName).join(' → ')}`;
}

const errorsOf = (result: ICruiseResult) =>
  result.summary.violations.filter((v) => v.rule.severity === 'error').map(describeViolation);

describe('architecture rules', () => {
  it('src/ breaks no layer rule and has no import cycle beyond the known baseline', async () => {
    const known = JSON.parse(readFileSync(KNOWN, 'utf8')) as IViolation[];
    const result = await run(root, { knownViolations: known });

    // resolution works (.js specifiers to .ts files), so the rules see the real graph
    expect(result.summary.totalCruised).toBeGreaterThan(100);
    expect(result.modules.filter((m) => m.source.startsWith('src/') && m.couldNotResolve)).toEqual([]);
    // the console's components are cruised too
    expect(
      result.modules.filter((m) => m.source.startsWith('web/') && m.source.endsWith('.tsx')).length,
    ).toBeGreaterThan(10);
    expect(errorsOf(result)).toEqual([]);

    // every known violation still happens: one fixed must leave the baseline too
    const ignored = result.summary.violations.filter((v) => v.rule.severity === 'ignore').map(describeViolation);
    const stale = known.map(describeViolation).filter((k) => !ignored.includes(k));
    expect(stale, 'fixed: remove from .dependency-cruiser-known-violations.json').toEqual([]);
  });

  it('catches every kind of violation in a tree that breaks the rules on purpose', async () => {
    const result = await run(FIXTURE);

    expect(errorsOf(result).sort()).toEqual(
      [
        // one cycle is one violation, whichever module it is seen from
        'no-circular: src/ingest/poll.ts → src/ingest/schedule.ts → src/ingest/poll.ts',
        'domain-is-pure: src/domain/price.ts → src/store/prices.ts',
        'domain-is-pure: src/domain/price.ts → fs',
        'domain-is-pure: src/domain/price.ts → npm:kysely',
        'schemas-only-typebox-and-domain: src/schemas/price.ts → src/store/prices.ts',
        'store-not-to-http-cli-ingest-services: src/store/prices.ts → src/ingest/poll.ts',
        'store-not-to-http-cli-ingest-services: src/store/prices.ts → src/http/routes.ts',
        'services-not-to-http-cli: src/manage/prices.ts → src/http/routes.ts',
        'http-not-to-cli: src/http/routes.ts → src/cli/main.ts',
        'infrastructure-below-features: src/net/fetch.ts → src/ingest/poll.ts',
        'infrastructure-below-features: src/jobs/queue.ts → src/manage/prices.ts',
        'presenters-below-services: src/presenters/price.ts → src/manage/prices.ts',
        'webhooks-not-to-http-cli-ingest-manage: src/webhooks/send.ts → src/ingest/poll.ts',
        'webhooks-not-to-http-cli-ingest-manage: src/webhooks/send.ts → src/manage/prices.ts',
        'web-only-schemas-and-domain: web/widget.ts → src/store/prices.ts',
        'web-only-schemas-and-domain: web/console/panel.tsx → src/store/prices.ts',
        'web-type-only-from-src: web/widget.ts → src/domain/price.ts',
      ].sort(),
    );
  });
});
