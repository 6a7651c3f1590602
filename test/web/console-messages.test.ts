// The console's words for the management API's refusals
// (web/console/src/api/messages.ts), held against the real API: a server
// is sent a wrong value for every field of every write (and the lists'
// query parameters), and every field path it names must have a label of the
// console's own, and no sentence the console would show may name a field by
// its path (`connector.url`, `branding.accent`, `dailyCallLimit`). Also:
// other refusals (401, 403, 404, 409) in plain words, a failing feed's cause
// and fix (the SSRF guard's own messages, the real setting's name), and the
// slug a wall's name suggests. No browser.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI_ACTOR } from '../../src/manage/op.js';
import { createOperatorToken } from '../../src/manage/tokens.js';
import { checkUrl } from '../../src/net/guard.js';
import {
  feedFailureText,
  fieldErrorText,
  fieldMessage,
  hasLabel,
  isFieldPath,
  messageOf,
  PRIVATE_NETWORKS_SETTING,
} from '../../web/console/src/api/messages.js';
import { slugOf } from '../../web/console/src/ui/slug.js';
import { call } from '../helpers/http.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

interface FieldError {
  field: string;
  message: string;
}

/** An API refusal as the console's client makes it (client.ts's ApiError, by shape). */
class Refusal extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly fieldErrors: FieldError[] = [],
  ) {
    super(message);
  }
}

const BASE = '/api/manage/v1';
/** a value of the wrong type for any field: not a string, number, boolean, object or list of them */
const WRONG = [[]];
/** the pattern the issue names: a dotted name, as `connector.url` */
const DOTTED = /\b[a-z]+\.[a-z]+[A-Za-z.]*\b/g;

type Schema = {
  $ref?: string;
  type?: string;
  properties?: Record<string, Schema>;
  anyOf?: Schema[];
  items?: Schema;
  const?: unknown;
  enum?: unknown[];
};

describe('the console’s words for the management API’s refusals', () => {
  let srv: TestServer;
  let token = '';
  let viewer = '';
  const refusals: { route: string; status: number; message: string; fieldErrors: FieldError[] }[] = [];

  async function api(method: string, path: string, body?: unknown, as = token) {
    const res = await call(srv.baseUrl, BASE + path, { method, body, headers: { authorization: `Bearer ${as}` } });
    const json = res.json() as { responseMessage?: string; fieldErrors?: FieldError[]; responseData?: unknown };
    if (res.status >= 400)
      refusals.push({
        route: `${method} ${path}`,
        status: res.status,
        message: json.responseMessage ?? '',
        fieldErrors: json.fieldErrors ?? [],
      });
    return { status: res.status, json };
  }
  const refusalOf = (r: (typeof refusals)[number]) => new Refusal(r.status, r.message, r.fieldErrors);

  beforeAll(async () => {
    srv = await startTestServer();
    const op = { db: srv.store.db, actor: CLI_ACTOR, now: srv.clock.now };
    token = (await createOperatorToken(op, 'words')).token;
    viewer = (await createOperatorToken(op, { name: 'look-only', role: 'viewer' })).token;
    const account = (await api('POST', '/accounts', { name: 'Harbour Events', plan: 'enterprise' })).json
      .responseData as { id: number };
    await api('POST', '/walls', { accountId: account.id, name: 'Harbour Fest', url: 'harbour-fest' });
  });
  afterAll(async () => srv?.close());

  it('says what a field must be in plain words, naming it by its label in the form', () => {
    const cases: [message: string, label: string | undefined, shown: string][] = [
      [
        'connector.url must be an absolute http or https URL',
        'Feed URL',
        'Feed URL must be a web address starting with http:// or https://.',
      ],
      [
        'connector.url must be an absolute http or https URL',
        undefined,
        'Feed URL must be a web address starting with http:// or https://.',
      ],
      // a connector's part shown under another of its fields: named by its own label
      ['connector.hashtag must not have fewer than 1 characters', 'Instance URL', 'Hashtag cannot be empty.'],
      [
        'url must be a slug of 1 to 100 lowercase letters, digits, - and _, starting and ending with a letter or digit',
        'URL slug',
        'URL slug must be 1 to 100 lowercase letters, digits, - and _, starting and ending with a letter or digit.',
      ],
      [
        'name must be a string of 1 to 200 characters, not only spaces',
        'Name',
        'Name needs some text (at most 200 characters).',
      ],
      [
        'branding.accent must be null or a hex colour such as #1a2b3c or #abc',
        'Accent colour',
        'Accent colour must be a colour such as #1a2b3c.',
      ],
      [
        "layout must be null (the embed's own) or masonry, grid, carousel or event",
        'Layout',
        "Layout must be empty (the embed's own) or masonry, grid, carousel or event.",
      ],
      [
        'dailyCallLimit must be an integer from 0 to 1000000000',
        undefined,
        'Daily call limit must be a whole number from 0 to 1000000000.',
      ],
      [
        'connector: exactly one of hashtag, account is required',
        undefined,
        'What to collect: needs either “Hashtag” or “Account”, not both.',
      ],
      ['rules[2].words must not have fewer than 1 items', undefined, 'Rule 3: Words or phrases needs at least 1.'],
      [
        'rules[0]: action must be reject, hold or approve',
        undefined,
        'Rule 1: Action must be reject, hold or approve.',
      ],
      [
        'origins[1] must be an origin: http(s)://host[:port], without a path (e.g. https://shop.example)',
        undefined,
        'Allowed origin 2 must be a site’s address alone, such as https://shop.example (no path after it).',
      ],
      // the console's own words stay as they are
      ['A publishable key starts with pk_.', 'Publishable key', 'A publishable key starts with pk_.'],
      ['From 1 to 100, or empty for 20.', 'Posts per page', 'From 1 to 100, or empty for 20.'],
    ];
    for (const [message, label, shown] of cases) expect(fieldMessage(message, label), message).toBe(shown);
  });

  it('gives every field path the API names a label, and shows none of them (every write, every field, wrong)', async () => {
    const doc = srv.app.swagger() as {
      paths: Record<
        string,
        Record<
          string,
          {
            requestBody?: { content?: Record<string, { schema: Schema }> };
            parameters?: { in: string; name: string }[];
          }
        >
      >;
      components?: { schemas?: Record<string, Schema> };
    };
    const resolve = (s: Schema | undefined): Schema | undefined =>
      s?.$ref ? doc.components?.schemas?.[s.$ref.split('/').pop()!] : s;
    /** the branches of an object schema (a union's), each with its properties */
    const branches = (s: Schema | undefined): Schema[] => {
      const r = resolve(s);
      if (!r) return [];
      if (r.anyOf) return r.anyOf.flatMap(branches);
      return r.properties ? [r] : [];
    };
    for (const [path, ops] of Object.entries(doc.paths)) {
      if (!path.startsWith(BASE)) continue;
      const route = path.slice(BASE.length).replace(/\{[^}]+\}/g, '1');
      for (const [method, op] of Object.entries(ops)) {
        if (method === 'get') {
          // the lists' query parameters, each given a value no parameter takes
          for (const q of (op.parameters ?? []).filter((p) => p.in === 'query'))
            await api('GET', `${route}?${q.name}=${encodeURIComponent('¿ not this !')}`);
          continue;
        }
        const schema = op.requestBody?.content?.['application/json']?.schema;
        if (!schema || !['post', 'patch', 'put'].includes(method)) continue;
        for (const body of branches(schema)) {
          for (const [name, prop] of Object.entries(body.properties!)) {
            await api(method.toUpperCase(), route, { [name]: WRONG });
            // an object field's own fields (a connector's of each kind, the branding's, a CTA's), each wrong
            for (const inner of branches(prop.items ?? prop)) {
              const kind = inner.properties?.kind?.const ?? inner.properties?.kind?.enum?.[0];
              for (const sub of Object.keys(inner.properties!)) {
                if (sub === 'kind') continue;
                const value = { ...(kind ? { kind } : {}), [sub]: WRONG };
                await api(method.toUpperCase(), route, { [name]: prop.items ? [value] : value });
              }
            }
          }
        }
      }
    }
    const fieldErrors = refusals.flatMap((r) => r.fieldErrors);
    const named = [...new Set(fieldErrors.map((e) => e.field))];
    // the walk reached the fields the issue is about
    expect(named).toEqual(expect.arrayContaining(['connector.url', 'branding.accent', 'cta.url', 'rules[0].words']));
    expect(named.filter((f) => !hasLabel(f))).toEqual([]);

    // a path is raw when it is not a plain word: dotted, indexed or camelCase
    const raw = named.filter((f) => /[.[]|[a-z][A-Z]/.test(f));
    const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    const shows = raw.map((f) => [f, new RegExp(`(?<![\\w-])${escape(f)}(?![\\w-])`)] as const);
    const texts = [
      ...fieldErrors.map(fieldErrorText),
      ...fieldErrors.map((e) => fieldMessage(e.message, 'The label')),
      ...refusals.map((r) => messageOf(refusalOf(r))),
    ];
    const leaks = texts.flatMap((t) => [
      ...shows.filter(([, re]) => re.test(t)).map(([f]) => `${f} in “${t}”`),
      ...[...t.matchAll(DOTTED)].filter(([m]) => isFieldPath(m)).map(([m]) => `${m} in “${t}”`),
    ]);
    expect(leaks).toEqual([]);
    // and none says "null", "integer" or "string" to a marketer
    expect(texts.filter((t) => /\b(null|integer|string)\b/.test(t))).toEqual([]);
  });

  it('says other refusals by what they mean and what to do', async () => {
    refusals.length = 0;
    await api('GET', '/walls/999');
    await api('POST', '/walls', { accountId: 1, name: 'Harbour Fest again', url: 'harbour-fest' });
    await api('POST', '/walls', { accountId: 1, name: 'Not mine to make', url: 'not-mine' }, viewer);
    await api('GET', '/tokens/current', undefined, 'wop_not-a-token');
    expect(refusals.map((r) => [r.status, messageOf(refusalOf(r))])).toEqual([
      [404, 'Wall 999 was not found: it was deleted, or this token cannot see it.'],
      [409, 'The URL slug “harbour-fest” is already used by wall 1 of this account: choose another.'],
      [
        403,
        expect.stringMatching(
          /^Your token’s role \(viewer\) cannot create a wall: that needs editor or admin\. Ask an admin for a token with that role\.$/,
        ),
      ],
      [401, 'This operator token is not valid (unknown, revoked, or not an operator token): sign in with a valid one.'],
    ]);
    // a 400 lists every field's sentence
    expect(
      messageOf(
        new Refusal(400, 'x', [
          { field: 'name', message: 'name must be a string of 1 to 200 characters, not only spaces' },
          { field: 'connector.url', message: 'connector.url must be an absolute http or https URL' },
        ]),
      ),
    ).toBe(
      'Please check: Name needs some text (at most 200 characters). Feed URL must be a web address starting with http:// or https://.',
    );
    expect(messageOf(new Refusal(500, 'Internal server error'))).toMatch(/^Wallery could not do this just now/);
    expect(messageOf(new Error('Wallery could not be reached.'))).toBe('Wallery could not be reached.');
  });

  it('explains a failing feed in one sentence: the cause and the fix (a private address: the real setting)', () => {
    // the setting the sentence names is the one the server reads
    expect(readFileSync(new URL('../../src/config.ts', import.meta.url), 'utf8')).toContain(
      `env.${PRIVATE_NETWORKS_SETTING}`,
    );
    const refusal = (url: string) => {
      try {
        checkUrl(url, false);
      } catch (err) {
        return (err as Error).message;
      }
      throw new Error(`${url} was not refused`);
    };
    for (const url of [
      'http://127.0.0.1:8080/feed.xml',
      'http://10.1.2.3/feed',
      'http://[::1]/rss',
      'http://192.168.0.9/',
    ]) {
      const text = feedFailureText(refusal(url));
      expect(text, url).toContain(PRIVATE_NETWORKS_SETTING);
      expect(text.match(/[.!?](\s|$)/g), `one sentence: ${text}`).toHaveLength(1);
    }
    expect(feedFailureText('refused: localhost resolves to 127.0.0.1, a loopback address')).toContain(
      PRIVATE_NETWORKS_SETTING,
    );
    expect(feedFailureText(refusal('ftp://example.com/feed'))).toMatch(/starts with http:\/\/ or https:\/\//);
    expect(feedFailureText(refusal('https://me:secret@example.com/feed'))).toMatch(/user name or password/);
    expect(feedFailureText('HTTP 404 from example.com')).toMatch(/^The feed’s site says there is no such page \(404\)/);
    expect(feedFailureText('expected a feed from example.com/blog, got an HTML page')).toMatch(/not a feed/);
    expect(feedFailureText('example.com: ENOTFOUND getaddrinfo ENOTFOUND example.com')).toMatch(/typo/);
    // what no rule knows: the poller's own words, as a sentence
    expect(feedFailureText('something new')).toBe('The last poll failed: something new.');
  });

  it('suggests a wall’s URL slug from its name', () => {
    expect(slugOf('Harbour Fest 2026 — Café!')).toBe('harbour-fest-2026-cafe');
    expect(slugOf('  Rock & Roll  ')).toBe('rock-and-roll');
    expect(slugOf('Straße_42')).toBe('strasse-42');
    expect(slugOf('!!!')).toBe('');
    const long = slugOf(`${'a'.repeat(99)} b`);
    expect(long).toBe('a'.repeat(99));
    expect(slugOf('x'.repeat(150))).toHaveLength(100);
  });
});
