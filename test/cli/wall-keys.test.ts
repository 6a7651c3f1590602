// `wallery walls keys create|list|revoke`: publishable keys made with the CLI
// on a real SQLite file, used (and refused once revoked) by a server on the
// same file, and audited as `cli`.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { describeSample } from '../helpers/sample.js';
import { SAMPLE_DATA_PATH, startTestServer, type TestServer } from '../helpers/server.js';

describeSample('wallery walls keys', () => {
  let dir: string;
  let db: string;
  let srv: TestServer;
  const cli = (...args: string[]) => runCli([...args, '--database', db]);
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'wallery-cli-wall-keys-'));
    db = join(dir, 'wallery.db');
    const imported = await runCli(['import', SAMPLE_DATA_PATH, '--database', db]);
    expect(imported.code, imported.stderr).toBe(0);
    srv = await startTestServer({ dir });
  });
  afterAll(async () => {
    await srv?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('creates a key (printed once), lists it by prefix, revokes it: the embed API follows', async () => {
    const made = await cli(
      'walls',
      'keys',
      'create',
      '7011',
      '--origin',
      'https://shop.example',
      '--origin',
      'http://localhost:8080',
    );
    expect(made.code, made.stderr).toBe(0);
    const key = made.stdout.trim();
    expect(key).toMatch(/^pk_[A-Za-z0-9_-]{32}$/);
    const read = await fetch(`${srv.baseUrl}/api/embed/v1/walls/7011?key=${key}`, {
      headers: { origin: 'https://shop.example' },
    });
    expect(read.status).toBe(200);

    const list = await cli('walls', 'keys', 'list', '7011', '--json');
    expect(list.code, list.stderr).toBe(0);
    const page = JSON.parse(list.stdout) as { data: { id: number; prefix: string; origins: string[] }[] };
    expect(page.data).toHaveLength(1);
    expect(page.data[0]!.prefix).toBe(key.slice(0, 9));
    expect(page.data[0]!.origins).toEqual(['https://shop.example', 'http://localhost:8080']);
    expect(list.stdout).not.toContain(key);
    const table = await cli('walls', 'keys', 'list', '7011');
    expect(table.stdout).toMatch(/^id\s+prefix\s+origins\s+createdAt\s+revokedAt/);

    const revoked = await cli('walls', 'keys', 'revoke', '7011', String(page.data[0]!.id));
    expect(revoked.code, revoked.stderr).toBe(0);
    expect(revoked.stdout).toBe(`publishable key ${page.data[0]!.id} revoked\n`);
    // the server notices the other process's commit on its next request
    const refused = await fetch(`${srv.baseUrl}/api/embed/v1/walls/7011?key=${key}`);
    expect(refused.status).toBe(401);
    const again = await cli('walls', 'keys', 'revoke', '7011', String(page.data[0]!.id));
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/already revoked/);

    const audit = await cli('audit', '--json', '--limit', '2');
    const entries = JSON.parse(audit.stdout) as { data: { action: string; tokenName: string }[] };
    expect(entries.data.map((e) => [e.action, e.tokenName])).toEqual([
      ['publishable_key.revoke', 'cli'],
      ['publishable_key.create', 'cli'],
    ]);
  });

  it('refuses bad origins and unknown walls in one line', async () => {
    const bad = await cli('walls', 'keys', 'create', '7011', '--origin', 'https://shop.example/path');
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/^wallery: origins\[0\] must be an origin/);
    const none = await cli('walls', 'keys', 'create', '999999');
    expect(none.code).toBe(1);
    expect(none.stderr).toMatch(/wall 999999 not found/);
  });
});
