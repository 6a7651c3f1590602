// `wallery rights …`: real processes (the built bin) on a real SQLite file
// holding the sample data. Settings changed and printed, an RSS post asked
// for by hand on a wall that requires rights, its answer recorded, its
// evidence shown and reported as CSV and as a PDF, a request expired by `watch --once`,
// the opt-out list, and a bad option refused in one line.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openStore } from '../../src/store/store.js';
import { runCli } from '../helpers/cli.js';
import { readPdf } from '../helpers/pdf.js';
import { describeSample } from '../helpers/sample.js';
import { SAMPLE_DATA_PATH } from '../helpers/server.js';

// wall 7011 (account 7001) has an RSS feed: its posts can only be asked for by hand
const ACCOUNT = '7001';
const WALL = '7011';
const RSS_POSTS = ['17002', '17005'];

/** RFC 4180 CSV (quoted fields, doubled quotes, commas and newlines inside quotes) as records by the header row. */
function parseCsv(text: string): Record<string, string>[] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  const endField = () => {
    row.push(field);
    field = '';
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted && c === '"' && text[i + 1] === '"') {
      field += '"';
      i++;
    } else if (c === '"') quoted = !quoted;
    else if (quoted) field += c;
    else if (c === ',') endField();
    else if (c === '\n') {
      endField();
      rows.push(row);
      row = [];
    } else field += c;
  }
  const [header, ...body] = rows;
  return body.map((cells) => Object.fromEntries(header!.map((h, i) => [h, cells[i] ?? ''])));
}

describeSample('wallery rights', () => {
  let dir: string;
  let db: string;
  const cli = (...args: string[]) => runCli([...args, '--database', db]);
  /** Runs a command that must succeed; its stdout. */
  const ok = async (...args: string[]) => {
    const r = await cli(...args);
    expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(0);
    return r.stdout;
  };
  /** Reads (or writes) the file as another process would. */
  async function withStore<T>(fn: (store: ReturnType<typeof openStore>) => Promise<T>): Promise<T> {
    const store = openStore({ kind: 'sqlite', path: db });
    try {
      return await fn(store);
    } finally {
      await store.close();
    }
  }
  const postRow = (id: string) =>
    withStore((s) =>
      s.db
        .selectFrom('posts')
        .select(['rights_state', 'rights_hold'])
        .where('id', '=', Number(id))
        .executeTakeFirstOrThrow(),
    );

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'wallery-cli-rights-'));
    db = join(dir, 'wallery.db');
    const imported = await runCli(['import', SAMPLE_DATA_PATH, '--database', db]);
    expect(imported.code, imported.stderr).toBe(0);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('changes the settings (only those given) and prints them; refuses bad values in one line', async () => {
    const changed = JSON.parse(
      await ok(
        'rights',
        'settings',
        ACCOUNT,
        '--hashtag',
        '#YesTrail',
        '--brand',
        'Open Trails',
        '--decline-words',
        'no, #NoThanks ,',
        '--per-author-per-day',
        '3',
        '--terms-url',
        'https://trails.example/terms',
        '--json',
      ),
    ) as Record<string, unknown>;
    expect(changed).toMatchObject({
      grantHashtag: 'YesTrail',
      brand: 'Open Trails',
      declineWords: ['no', '#NoThanks'],
      perAuthorPerDay: 3,
      termsUrl: 'https://trails.example/terms',
      // not given: unchanged
      perDay: 50,
      expireDays: 14,
      connections: {},
    });

    const printed = await ok('rights', 'settings', ACCOUNT);
    expect(printed).toMatch(/^grantHashtag\s+YesTrail$/m);
    expect(printed).toMatch(/^brand\s+Open Trails$/m);
    expect(printed).toMatch(/^perAuthorPerDay\s+3$/m);

    // every problem of the values at once, before the store is touched
    const bad = await cli(
      'rights',
      'settings',
      ACCOUNT,
      '--per-day',
      '0',
      '--mastodon-visibility',
      'loud',
      '--connection',
      'mastodon=abc',
    );
    expect(bad.code).toBe(1);
    expect(bad.stdout).toBe('');
    expect(bad.stderr.trim().split('\n')).toHaveLength(1);
    expect(bad.stderr).toMatch(/^wallery: /);
    expect(bad.stderr).toContain('mastodonVisibility must be public, unlisted or direct');
    expect(bad.stderr).toContain('perDay must be a whole number from 1 to 5000');
    expect(bad.stderr).toContain('connections');
    // the service's own rule (the template must say how to grant) and a connection that is not the account's
    const rules = await Promise.all([
      cli('rights', 'settings', ACCOUNT, '--template', 'Hi {author}, may we?'),
      cli('rights', 'settings', ACCOUNT, '--connection', 'mastodon=424242'),
    ]);
    expect(rules.map((r) => r.code)).toEqual([1, 1]);
    expect(rules[0]!.stderr).toMatch(/^wallery: template must say how to grant/);
    expect(rules[1]!.stderr).toMatch(/^wallery: connection 424242 is not a connection of account 7001/);
  });

  it('asks by hand, records the grant, shows the evidence, reports it as CSV and PDF; watch --once expires the other', async () => {
    await ok('walls', 'update', WALL, '--rights-required', 'all');
    expect(await postRow(RSS_POSTS[0]!)).toEqual({ rights_state: null, rights_hold: 1 });

    // one line a post, in the order given; one not on the wall makes the exit code 1
    const asked = await cli('rights', 'request', WALL, ...RSS_POSTS, '99999');
    expect(asked.code, asked.stderr).toBe(1);
    const lines = asked.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[0]).toBe(
      'post 17002: ask by hand, send the author: Hi @user_27! We love this post and would like to show it on our site. ' +
        'Reply #YesTrail to agree to Open Trails using it. Terms: https://trails.example/terms',
    );
    expect(lines[1]).toMatch(/^post 17005: ask by hand, send the author: Hi @user_30! /);
    expect(lines[2]).toBe('post 99999: not found — post 99999 is not on wall 7011');
    expect(await postRow(RSS_POSTS[0]!)).toEqual({ rights_state: 'requested', rights_hold: 1 });

    // a note a spreadsheet would run as a formula
    const note = '=HYPERLINK("https://evil.example")';
    const granted = await ok(
      'rights',
      'answer',
      WALL,
      RSS_POSTS[0]!,
      'granted',
      '--note',
      note,
      '--url',
      'https://mail.example/msg/1',
    );
    expect(granted).toMatch(/^state\s+granted$/m);
    expect(await postRow(RSS_POSTS[0]!)).toEqual({ rights_state: 'granted', rights_hold: 0 });

    const shown = await ok('rights', 'show', WALL, RSS_POSTS[0]!);
    expect(shown).toMatch(/^state\s+granted$/m);
    expect(shown).toMatch(/^held\s+false$/m);
    expect(shown).toMatch(/^author\s+rss:user_27$/m);
    expect(shown).toMatch(/^method\s+manual$/m);
    expect(shown).toMatch(/^requestedBy\s+cli$/m);
    expect(shown).toMatch(/^answerUrl\s+https:\/\/mail\.example\/msg\/1$/m);
    const trail = shown.slice(shown.indexOf('evidence (oldest first):'));
    expect(trail).toMatch(/^ {2}\S+Z\s+requested\s+cli\s+requested\s/m);
    expect(trail).toMatch(/^ {2}\S+Z\s+recorded\s+cli\s+granted\s+https:\/\/mail\.example\/msg\/1\s/m);
    expect(trail.indexOf(' requested ')).toBeLessThan(trail.indexOf(' recorded '));

    const csv = await ok('rights', 'report', ACCOUNT, '--wall', WALL, '--csv');
    const rows = parseCsv(csv);
    expect(rows.map((r) => [r.postId, r.state])).toEqual([
      ['17002', 'granted'],
      ['17005', 'requested'],
    ]);
    expect(rows[0]).toMatchObject({
      author: 'rss:user_27',
      method: 'manual',
      requestedBy: 'cli',
      decidedBy: 'cli',
      answerUrl: 'https://mail.example/msg/1',
      note: `'${note}`,
    });
    expect(csv.split('\n')[0]).toBe(
      'postId,wallId,network,author,authorName,postUrl,state,method,requestedAt,requestedBy,requestUrl,requestText,' +
        'answeredAt,answerUrl,answerText,decidedBy,note',
    );

    // the same as a PDF for the legal team, written to a file
    const file = join(dir, 'evidence.pdf');
    expect(await ok('rights', 'report', ACCOUNT, '--wall', WALL, '--pdf', '--out', file)).toBe(
      `wrote the evidence of 2 posts to ${file}\n`,
    );
    const bytes = readFileSync(file);
    expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const pdf = await readPdf(bytes);
    const text = pdf.pages.join(' ');
    expect(text).toContain(`Account ${ACCOUNT} · wall ${WALL}`);
    expect(text).toContain(`Post ${RSS_POSTS[0]} · wall ${WALL} · GRANTED`);
    expect(text).toContain(`Post ${RSS_POSTS[1]} · wall ${WALL} · REQUESTED`);
    expect(text).toContain('Decided by cli');
    expect(pdf.links).toContain('https://mail.example/msg/1');
    const both = await cli('rights', 'report', ACCOUNT, '--pdf', '--csv');
    expect([both.code, both.stderr]).toEqual([1, 'wallery: --csv and --pdf cannot be used together\n']);

    // the other request is past its expiry: one pass of the watcher expires it
    await withStore((s) =>
      s.db
        .updateTable('post_rights')
        .set({ expires_at: Date.now() - 1000 })
        .where('post_id', '=', Number(RSS_POSTS[1]))
        .execute(),
    );
    const watched = await ok('rights', 'watch', '--once');
    expect(watched).toContain('expired 1 request unanswered in time\n');
    expect(watched).toMatch(/^rights watcher: 1 expired, 0 asked, 0 answers heard, 0 requests listened to$/m);
    expect(await postRow(RSS_POSTS[1]!)).toEqual({ rights_state: 'expired', rights_hold: 1 });
  });

  it('keeps the opt-out list: add, list, remove; every step audited as cli', async () => {
    const added = JSON.parse(
      await ok('rights', 'opt-outs', 'add', ACCOUNT, 'Mastodon', '@Ana@Harbor.social', '--note', 'by e-mail', '--json'),
    ) as Record<string, unknown>;
    expect(added).toMatchObject({ author: 'mastodon:ana@harbor.social', reason: 'operator', note: 'by e-mail' });
    const twice = await cli('rights', 'opt-outs', 'add', ACCOUNT, 'mastodon', 'ana@harbor.social');
    expect(twice.code).toBe(1);
    expect(twice.stderr).toBe('wallery: mastodon:ana@harbor.social is on the opt-out list already\n');

    const listed = await ok('rights', 'opt-outs', 'list', ACCOUNT);
    expect(listed).toMatch(/^author\s+reason\s+postId\s+note\s+createdAt$/m);
    expect(listed).toMatch(/^mastodon:ana@harbor\.social\s+operator\s+-\s+by e-mail\s/m);

    expect(await ok('rights', 'opt-outs', 'remove', ACCOUNT, 'mastodon:ana@harbor.social')).toBe(
      'mastodon:ana@harbor.social taken off the opt-out list of account 7001\n',
    );

    const audit = JSON.parse(await ok('audit', '--json', '--limit', '50')) as {
      data: { action: string; tokenName: string }[];
    };
    const rights = audit.data.filter((e) => e.action.startsWith('rights.'));
    expect(rights.map((e) => e.action).reverse()).toEqual([
      'rights.settings',
      'rights.request',
      'rights.answer',
      'rights.optout.add',
      'rights.optout.remove',
    ]);
    expect(new Set(rights.map((e) => e.tokenName))).toEqual(new Set(['cli']));
  });
});
