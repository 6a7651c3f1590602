// The `provider` rule end to end, on SQLite and PostgreSQL: a wall whose rule
// names a moderation provider (a local server speaking the OpenAI moderation
// protocol), posts ingested from a local Mastodon instance, then the provider
// check asking and deciding. A flagged post is held with its explained
// reason, a clean one approved; a provider that is slow (past the timeout),
// failing (500) or down leaves every post held with why — none approved; the
// circuit opens after N failures (no more calls reach the server) and closes
// again; an exhausted budget holds; a new runner (a restart) finishes the
// posts left waiting; a rule naming a provider not configured is refused.
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { parseModerationProviders } from '../../src/config.js';
import { silentLogger } from '../../src/jobs/log.js';
import { ProviderCheckRunner, providersFromConfig } from '../../src/moderation/provider-check.js';
import { call } from '../helpers/http.js';
import { makeToken } from '../http/manage/helpers.js';
import { account, mastodonHtml, startMastodon, status, type MastodonFixture } from './fixtures/mastodon.js';
import { NOW, WALL, startHarness, type Harness } from './harness.js';

type Mode = 'answer' | 'slow' | 'fail';

/** A local OpenAI-style moderation server: `hate` scores high for texts saying "hateful". */
async function startModerationServer() {
  const state = { mode: 'answer' as Mode, calls: 0, held: [] as ServerResponse[] };
  const server: Server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (body += c));
    req.on('end', () => {
      state.calls++;
      if (state.mode === 'slow') {
        // never answers: the call times out (the response is ended when the server closes)
        state.held.push(res);
        return;
      }
      if (state.mode === 'fail') {
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end('{"error":"overloaded"}');
        return;
      }
      const { input } = JSON.parse(body) as { input: string };
      const hate = /hateful/i.test(input) ? 0.93 : 0.01;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          id: 'modr-1',
          model: 'omni-moderation-latest',
          results: [{ flagged: hate > 0.5, category_scores: { hate, violence: 0.02, sexual: 0.6 } }],
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    state,
    origin,
    async close() {
      for (const res of state.held) res.destroy();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** A port nothing listens on: a provider that is down. */
async function deadOrigin(): Promise<string> {
  const s = createServer();
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  const port = (s.address() as AddressInfo).port;
  await new Promise((resolve) => s.close(resolve));
  return `http://127.0.0.1:${port}`;
}

const id = (n: number) => `1139600000000${String(n).padStart(5, '0')}`;
const people = ['ana', 'bo', 'cy', 'di', 'ed', 'fi'].map((u, i) =>
  account(u, u.toUpperCase(), `10960000000000010${i}`),
);

let fx: MastodonFixture | undefined;
let h: Harness | undefined;
let mod: Awaited<ReturnType<typeof startModerationServer>> | undefined;
afterEach(async () => {
  await h?.close();
  await fx?.close();
  await mod?.close();
  h = fx = mod = undefined;
});

interface Post {
  id: number;
  externalId: string;
  state: string;
  decision: { by: string; reason: string | null; detail: Record<string, unknown> | null } | null;
}

const RULES = [{ id: 'mod', kind: 'provider', provider: 'mod', labels: ['hate'] }];

async function wall(texts: string[], rules: unknown[] = RULES) {
  fx = await startMastodon();
  h = await startHarness(
    [{ id: 621, name: 'Mastodon #wallery', connector: { kind: 'mastodon', instance: fx.origin, hashtag: 'wallery' } }],
    { rules, moderation: 'auto' },
  );
  // as openRuntime gives it: the names of the configured providers
  h.server.app.ctx.moderationProviders = ['mod'];
  texts.forEach((text, k) =>
    fx!.statuses.push(
      status({
        id: id(k + 1),
        createdAt: new Date(NOW - (100 - k) * 1000).toISOString(),
        html: mastodonHtml(text, ['wallery']),
        account: people[k % people.length]!,
        tags: ['wallery'],
      }),
    ),
  );
  fx.statuses.sort((a, b) => String(b.id).localeCompare(String(a.id)));
  const { token } = await makeToken(h.server, 'moderator-mo');
  const manage = (method: string, path: string, body?: unknown) =>
    call(h!.server.baseUrl, `/api/manage/v1${path}`, { method, body, headers: { authorization: `Bearer ${token}` } });
  const posts = async () => {
    const res = await manage('GET', `/walls/${WALL}/posts?limit=100&state=all`);
    expect(res.status, res.text).toBe(200);
    return new Map(
      (res.json() as { responseData: { data: Post[] } }).responseData.data.map((p) => [p.externalId, p] as const),
    );
  };
  expect((await h.poll())[0]).toMatchObject({ status: 'ok', inserted: texts.length });
  return { manage, posts };
}

function runner(origin: string, settings: Record<string, unknown> = {}) {
  const providers = providersFromConfig(
    parseModerationProviders(
      JSON.stringify([{ name: 'mod', protocol: 'openai', url: origin, apiKey: 'sk-test', ...settings }]),
    ),
  );
  return new ProviderCheckRunner({
    db: h!.server.store.db,
    providers,
    now: () => h!.clock.now,
    log: silentLogger,
    announce: () => undefined,
  });
}

/** How many posts carry each decision reason. */
const reasons = (posts: Post[]) => {
  const out: Record<string, number> = {};
  for (const p of posts) out[p.decision?.reason ?? 'none'] = (out[p.decision?.reason ?? 'none'] ?? 0) + 1;
  return out;
};

const CLEAN = 'The harbour lights at dusk, seen from the pier with the whole crew';
const HATEFUL = 'A hateful rant about the other team and everyone who supports them';

describe('the provider rule', () => {
  it('holds the flagged post with why, approves the clean one; the answers are stored for a dry run', async () => {
    mod = await startModerationServer();
    const { posts, manage } = await wall([CLEAN, HATEFUL]);
    // both wait for the provider, pending
    for (const p of (await posts()).values())
      expect(p).toMatchObject({ state: 'pending', decision: { by: 'check:provider' } });

    const r = runner(mod.origin);
    await r.runOnce();
    const all = await posts();
    expect(all.get(id(1))).toMatchObject({ state: 'approved', decision: null });
    expect(all.get(id(2))).toMatchObject({
      state: 'pending',
      decision: {
        by: 'rule:mod',
        reason: "held: provider 0.93 'hate' ≥ 0.50 — omni-moderation-latest via openai",
        detail: { rule: 'mod', kind: 'provider', label: 'hate', score: 0.93, threshold: 0.5 },
      },
    });
    expect(mod.state.calls).toBe(2);
    expect(r.stats.calls.mod).toMatchObject({ answered: 2, timeout: 0, outage: 0 });
    // `sexual` scored 0.6, but the rule counts `hate` only; with every label counted, the clean post matches
    const dry = await manage('PUT', `/walls/${WALL}/rules?dryRun=true`, {
      rules: [{ id: 'mod', kind: 'provider', provider: 'mod', threshold: 0.5 }],
    });
    expect(dry.status, dry.text).toBe(200);
    // the dry run judges the pending post on its stored answer, asking nothing
    expect((dry.json() as { responseData: { counts: unknown } }).responseData.counts).toEqual([
      { ruleId: 'mod', matched: 1, changed: 0 },
    ]);
    expect(mod.state.calls).toBe(2);
  });

  it("the wall's duplicate rule after the provider rule judges a waiting post once the provider has answered", async () => {
    mod = await startModerationServer();
    const { posts } = await wall(
      [CLEAN, CLEAN],
      [...RULES, { id: 'dup', kind: 'duplicate', action: 'reject', within: 60, distance: 3 }],
    );
    await runner(mod.origin).runOnce();
    const all = await posts();
    expect(all.get(id(1))).toMatchObject({ state: 'approved', decision: null });
    expect(all.get(id(2))).toMatchObject({
      state: 'rejected',
      decision: { by: 'rule:dup', reason: `rejected: duplicate 0 '${all.get(id(1))!.id}' ≤ 3 — simhash-64` },
    });
  });

  it('holds every post with the reason when the provider times out, fails or is down — none approved', async () => {
    mod = await startModerationServer();
    const { posts } = await wall([CLEAN, HATEFUL, `${CLEAN} again`]);
    mod.state.mode = 'slow';
    await runner(mod.origin, { timeoutMs: 300 }).runOnce();
    for (const p of (await posts()).values())
      expect(p).toMatchObject({
        state: 'pending',
        decision: {
          by: 'rule:mod',
          reason: "held: provider 'mod' unanswered (timeout: no answer in 300 ms)",
          detail: { kind: 'provider', label: 'timeout' },
        },
      });
  });

  it('holds on a 500 and on a provider that is down; the circuit opens after N failures, then closes', async () => {
    mod = await startModerationServer();
    const texts = [CLEAN, HATEFUL, `${CLEAN} once more`, `${CLEAN} and again`, `${CLEAN} a fifth time`];
    const { posts, manage } = await wall(texts);
    mod.state.mode = 'fail';
    const r = runner(mod.origin, { failuresToOpen: 2, openForMs: 60_000 });
    await r.runOnce();
    // two calls reached the server (HTTP 500); then the circuit is open: the other three were not sent
    expect(mod.state.calls).toBe(2);
    expect(r.stats.calls.mod).toMatchObject({ answered: 0, outage: 2, 'circuit open': 3 });
    expect(r.circuits()).toEqual([{ provider: 'mod', circuit: 'open' }]);
    const held = [...(await posts()).values()];
    expect(held.every((p) => p.state === 'pending')).toBe(true);
    expect(reasons(held)).toEqual({
      "held: provider 'mod' unanswered (outage: HTTP 500)": 2,
      "held: provider 'mod' unanswered (circuit open: 2 failures in a row)": 3,
    });

    // the provider is back; applying the rules sets the held posts waiting for it again
    mod.state.mode = 'answer';
    const apply = await manage('POST', `/walls/${WALL}/rules/apply`, {});
    expect(apply.status, apply.text).toBe(200);
    expect((apply.json() as { responseData: { queued: number } }).responseData.queued).toBe(5);
    for (const p of (await posts()).values()) expect(p.decision?.by).toBe('check:provider');
    // while the circuit is open nothing is sent
    await r.runOnce();
    expect(mod.state.calls).toBe(2);
    expect((await manage('POST', `/walls/${WALL}/rules/apply`, {})).status).toBe(200);
    // past openForMs (the breaker's own clock) one call tries again; it is answered, the circuit closes, the rest follow
    const later = Date.now() + 60_001;
    vi.spyOn(Date, 'now').mockImplementation(() => later);
    try {
      await r.runOnce();
    } finally {
      vi.restoreAllMocks();
    }
    expect(r.circuits()).toEqual([{ provider: 'mod', circuit: 'closed' }]);
    expect(mod.state.calls).toBe(7);
    const after = await posts();
    expect(after.get(id(2))!.decision!.reason).toBe(
      "held: provider 0.93 'hate' ≥ 0.50 — omni-moderation-latest via openai",
    );
    for (const n of [1, 3, 4, 5]) expect(after.get(id(n))).toMatchObject({ state: 'approved', decision: null });

    // a provider that is down: held, with why
    fx!.statuses.unshift(
      status({
        id: id(9),
        createdAt: new Date(NOW - 1000).toISOString(),
        html: mastodonHtml(`${CLEAN} at last`, ['wallery']),
        account: people[0]!,
        tags: ['wallery'],
      }),
    );
    h!.clock.now += 3_600_000;
    await h!.poll(621);
    await runner(await deadOrigin()).runOnce();
    const down = (await posts()).get(id(9))!;
    expect(down.state).toBe('pending');
    expect(down.decision!.reason).toMatch(/^held: provider 'mod' unanswered \(outage: /);
  });

  it('holds once the daily budget is used; a new runner (a restart) finishes the posts left waiting', async () => {
    mod = await startModerationServer();
    const { posts } = await wall([CLEAN, HATEFUL, `${CLEAN} once more`]);
    // a runner stopped before it began: the posts stay waiting, as after a crash
    const stopped = runner(mod.origin);
    await stopped.stop();
    await stopped.runOnce();
    expect(mod.state.calls).toBe(0);
    for (const p of (await posts()).values()) expect(p.decision?.by).toBe('check:provider');
    // the next process's runner, with a budget of two calls a day
    const r = runner(mod.origin, { dailyBudget: 2 });
    await r.runOnce();
    expect(mod.state.calls).toBe(2);
    // the first two posts asked were answered (a clean one approved, a hateful one held); the third held for the budget
    const all = [...(await posts()).values()];
    const overBudget = all.filter(
      (p) => p.decision?.reason === "held: provider 'mod' unanswered (over budget: 2 calls a day used)",
    );
    expect(overBudget).toHaveLength(1);
    expect(overBudget[0]!.state).toBe('pending');
    for (const p of all.filter((p) => p !== overBudget[0]))
      if (p.externalId === id(2))
        expect(p).toMatchObject({ state: 'pending', decision: { by: 'rule:mod', detail: { label: 'hate' } } });
      else expect(p).toMatchObject({ state: 'approved', decision: null });
    expect(r.stats.calls.mod).toMatchObject({ answered: 2, 'over budget': 1 });
  });

  it('refuses a rule naming a provider that is not configured (save and dry run), in the envelope', async () => {
    mod = await startModerationServer();
    const { manage } = await wall([CLEAN]);
    const rules = { rules: [{ kind: 'provider', provider: 'nope' }] };
    for (const path of [`/walls/${WALL}/rules`, `/walls/${WALL}/rules?dryRun=true`]) {
      const res = await manage('PUT', path, rules);
      expect(res.status, res.text).toBe(400);
      expect(res.json()).toMatchObject({
        fieldErrors: [
          {
            field: 'rules[0].provider',
            message: "rules[0].provider: no moderation provider 'nope' is configured (configured: mod)",
          },
        ],
      });
    }
    // a configured one is stored with its defaults; GET names the providers, not their URLs or keys
    const ok = await manage('PUT', `/walls/${WALL}/rules`, { rules: [{ kind: 'provider', provider: 'mod' }] });
    expect(ok.status, ok.text).toBe(200);
    const got = await manage('GET', `/walls/${WALL}/rules`);
    expect((got.json() as { responseData: unknown }).responseData).toEqual({
      rules: [{ id: 'r1', kind: 'provider', provider: 'mod', action: 'hold', labels: null, threshold: 0.5 }],
      providers: ['mod'],
    });
    expect(got.text).not.toContain('127.0.0.1');
  });
});
