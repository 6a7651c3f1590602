// The console's client is generated from the server's own OpenAPI document
// (scripts/console-api.ts): the committed files must be exactly what the
// generator makes now, so a management API change that the console has not
// taken in fails here (and, where it breaks the console, in the typecheck).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ACCESS_FILE, CONNECTORS_FILE, generateConsoleApi, SCHEMA_FILE } from '../../scripts/console-api.js';

describe('the console API client', () => {
  it('is generated from the current OpenAPI document (run `npm run gen:console-api` after an API change)', async () => {
    const { schema, access, connectors } = await generateConsoleApi();
    const stale = [
      readFileSync(SCHEMA_FILE, 'utf8') !== schema && 'web/console/src/api/schema.d.ts',
      readFileSync(ACCESS_FILE, 'utf8') !== access && 'web/console/src/api/access.gen.ts',
      readFileSync(CONNECTORS_FILE, 'utf8') !== connectors && 'web/console/src/api/connectors.gen.ts',
    ].filter(Boolean);
    expect(stale, 'stale generated files: run `npm run gen:console-api`').toEqual([]);
    // what the console relies on is in it
    expect(access).toContain("'GET /tokens/current': 'viewer'");
    expect(access).toContain("'POST /walls/{wallId}/feeds/{feedId}/poll': 'moderator'");
    expect(schema).toContain("'/walls/{wallId}/posts/bulk'");
    expect(connectors).toContain("title: 'Feed URL'");
  });
});
