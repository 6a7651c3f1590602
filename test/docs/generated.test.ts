// The configuration, CLI, management API and embed API references are
// generated from the code (scripts/docs-gen.ts): the committed pages must be
// exactly what the generator makes now. Run `npm run gen:docs` after changing
// a setting, a command or an operation.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { cliPage, configurationPage, formatPage, generateDocs, GENERATED, staleFiles } from '../../scripts/docs-gen.js';
import { createProgram } from '../../src/cli/commands.js';
import { loadConfig, SETTINGS } from '../../src/config.js';

describe('the generated reference pages', () => {
  it('are what `npm run gen:docs` makes from the current code', async () => {
    const pages = await generateDocs();
    expect(staleFiles(pages), 'stale generated pages: run `npm run gen:docs`').toEqual([]);
    // what readers (and test/ops/compose.test.ts) look for is in them
    expect(pages.configuration).toMatch(/^\| `INGEST_ALLOW_PRIVATE_NETWORKS` +\| `off` /m);
    expect(pages.configuration).toMatch(/^\| `PORT` +\| `3000` +\| an integer from 0 to 65535 /m);
    expect(pages.cli).toContain('### wallery feeds create');
    expect(pages.cli).toContain('`--connector <json>`');
    expect(pages.management).toContain('POST /api/manage/v1/walls/{wallId}/feeds');
    expect(pages.embed).toContain('GET /api/embed/v1/walls/{wallId}/posts');
  });

  it('are found stale when a command changes and the page is not regenerated (a planted drift)', async () => {
    const program = createProgram();
    program.commands
      .find((c) => c.name() === 'walls')!
      .commands.find((c) => c.name() === 'create')!
      .option('--planted <x>', 'an option the committed page does not have');
    const drifted = await formatPage('cli', cliPage(program));
    expect(drifted).toContain('--planted <x>');
    expect(staleFiles({ cli: drifted })).toEqual(['docs/reference/cli.md']);
    // and the page as committed is not stale
    expect(staleFiles({ cli: readFileSync(GENERATED.cli, 'utf8') })).toEqual([]);
  });

  it('refuses a variable the code reads but SETTINGS does not document, or a wrong default', () => {
    const reading = (env: NodeJS.ProcessEnv = {}) => {
      void env.PLANTED_SETTING;
      return loadConfig(env);
    };
    expect(() => configurationPage(SETTINGS, reading)).toThrow(/undocumented PLANTED_SETTING/);
    const unread = [...SETTINGS, { name: 'NOBODY_READS_ME', section: 'Server' as const, default: null, meaning: 'x' }];
    expect(() => configurationPage(unread)).toThrow(/never read NOBODY_READS_ME/);
    const wrong = SETTINGS.map((s) => (s.name === 'PORT' ? { ...s, default: '8080' } : s));
    expect(() => configurationPage(wrong)).toThrow(/PORT: its documented default 8080/);
  });
});
