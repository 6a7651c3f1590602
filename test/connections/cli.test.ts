// `wallery connections list|add|remove` as an operator runs them: real
// processes on a real SQLite file. The token comes on stdin or in
// WALLERY_CONNECTION_SECRET (never an argument), is sealed with the key file
// made beside the database, and is never printed back.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliArgs, ROOT, runCli, type CliResult } from '../helpers/cli.js';
import { hasSampleData, SAMPLE_DATA_PATH } from '../helpers/server.js';
import { testStoreKind } from '../helpers/services.js';

const TOKEN = `cli-${randomBytes(20).toString('hex')}`;

/** The CLI with `input` on its stdin. */
function runWithInput(args: string[], input: string, env: Record<string, string> = {}): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, cliArgs(args), { cwd: ROOT, env: { ...process.env, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(input);
  });
}

// one store kind is enough for the command line: the SQLite project runs it
describe.skipIf(!hasSampleData || testStoreKind() === 'postgres')('wallery connections', () => {
  let dir: string;
  let db: string;
  const ADD = ['connections', 'add', '--account', '7001', '--network', 'mastodon', '--name', 'GoToSocial'];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'wallery-cli-connections-'));
    db = join(dir, 'wallery.db');
    expect((await runCli(['import', SAMPLE_DATA_PATH, '--database', db])).code).toBe(0);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('adds a connection with the token from stdin or the environment, and prints it without the token', async () => {
    const piped = await runWithInput(
      [...ADD, '--instance', 'https://social.example', '--json', '--database', db],
      `${TOKEN}\n`,
    );
    expect(piped.code, piped.stderr).toBe(0);
    expect(piped.stdout).not.toContain(TOKEN);
    const made = JSON.parse(piped.stdout) as Record<string, unknown>;
    expect(made).toMatchObject({
      accountId: 7001,
      network: 'mastodon',
      status: 'active',
      tokenHint: `…${TOKEN.slice(-4)}`,
    });
    // sealed with the key made beside the database, readable by its owner only
    expect((statSync(join(dir, 'secret.key')).mode & 0o777).toString(8)).toBe('600');

    const fromEnv = await runWithInput(
      [
        'connections',
        'add',
        '--account',
        '7001',
        '--network',
        'flickr',
        '--name',
        'Flickr',
        '--kind',
        'api_key',
        '--json',
        '--database',
        db,
      ],
      '',
      { WALLERY_CONNECTION_SECRET: `${TOKEN}-key` },
    );
    expect(fromEnv.code, fromEnv.stderr).toBe(0);
    expect(JSON.parse(fromEnv.stdout)).toMatchObject({ network: 'flickr', authKind: 'api_key', tokenHint: '…-key' });

    const listed = await runCli(['connections', 'list', '7001', '--database', db]);
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toContain('GoToSocial');
    expect(listed.stdout).toContain('Flickr');
    expect(listed.stdout).not.toContain(TOKEN);
    for (const f of [db, `${db}-wal`]) {
      try {
        expect(readFileSync(f).includes(TOKEN)).toBe(false);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      }
    }

    const removed = await runCli(['connections', 'remove', String(made.id), '--database', db]);
    expect(removed.code, removed.stderr).toBe(0);
    expect(removed.stdout.trim()).toBe(`connection ${made.id} deleted`);
  });

  it('refuses without a token, or a bad option, in one line', async () => {
    const empty = await runWithInput([...ADD, '--database', db], '');
    expect(empty.code).not.toBe(0);
    expect(empty.stderr.trim()).toBe('wallery: no token or key on stdin (or in WALLERY_CONNECTION_SECRET)');
    const bad = await runWithInput([...ADD.slice(0, 5), 'myspace', '--name', 'Old', '--database', db], TOKEN);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain('network must be one of instagram, facebook');
    expect(bad.stderr).not.toContain(TOKEN);
  });
});
