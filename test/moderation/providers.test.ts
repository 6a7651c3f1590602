// The moderation providers against a local server that speaks their
// protocol: what is sent, what is read back, and every way a call can fail —
// each an answer that says why (the caller holds the post), never a throw.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { httpModeration } from '../../src/moderation/http-provider.js';
import { moderationRequest, openAiModeration } from '../../src/moderation/openai-provider.js';
import { resilientProvider, type ModerationInput, type ResilienceOptions } from '../../src/moderation/provider.js';

type Handler = (req: IncomingMessage, body: string, res: ServerResponse) => void;

let server: Server;
let base = '';
let handler: Handler;
/** the requests the server saw: method, path, authorization, body */
let seen: { path: string; auth: string | undefined; body: unknown }[] = [];
/** requests whose client went away before an answer (an aborted call) */
let abandoned = 0;

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (body += c));
    req.on('end', () => {
      seen.push({ path: req.url ?? '', auth: req.headers.authorization, body: JSON.parse(body) });
      res.on('close', () => {
        if (!res.writableFinished) abandoned++;
      });
      handler(req, body, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});
beforeEach(() => {
  seen = [];
  abandoned = 0;
});

const json = (res: ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
};

const post: ModerationInput = {
  text: 'Free tickets, click here',
  pictures: ['https://wall.example/media/p/1.webp'],
  author: 'ana',
  network: 'mastodon',
};

const ROOMY: ResilienceOptions = { timeoutMs: 5_000, failuresToOpen: 3, openForMs: 60_000, dailyBudget: 0 };

const SCORES = { sexual: 0.001, harassment: 0.91, violence: 0.02 };

describe('the OpenAI-style /v1/moderations adapter', () => {
  it('sends the text and pictures with the key and model, and reads each category’s score', async () => {
    handler = (_req, _body, res) =>
      json(res, 200, {
        id: 'modr-1',
        model: 'omni-moderation-2024-09-26',
        results: [{ flagged: true, categories: { harassment: true }, category_scores: SCORES }],
      });
    const adapter = openAiModeration({
      baseUrl: `${base}/`,
      apiKey: 'sk-test',
      model: 'omni-moderation-latest',
      pictures: true,
    });
    const provider = resilientProvider('openai', adapter, ROOMY);
    const outcome = await provider.ask(post);
    expect(outcome).toEqual({
      ok: true,
      verdict: {
        model: 'omni-moderation-2024-09-26',
        labels: [
          { label: 'sexual', score: 0.001 },
          { label: 'harassment', score: 0.91 },
          { label: 'violence', score: 0.02 },
        ],
      },
    });
    expect(seen).toEqual([
      {
        path: '/v1/moderations',
        auth: 'Bearer sk-test',
        body: {
          model: 'omni-moderation-latest',
          input: [
            { type: 'text', text: post.text },
            { type: 'image_url', image_url: { url: post.pictures[0] } },
          ],
        },
      },
    ]);
  });

  it('sends the text alone to a text-only model, and takes each category’s highest score over several results', async () => {
    expect(moderationRequest(post, { baseUrl: base, model: 'm', pictures: false })).toEqual({
      model: 'm',
      input: post.text,
    });
    handler = (_req, _body, res) =>
      json(res, 200, { results: [{ category_scores: { hate: 0.2 } }, { category_scores: { hate: 0.7 } }] });
    const provider = resilientProvider(
      'local',
      openAiModeration({ baseUrl: base, model: 'text-moderation-stable', pictures: false }),
      ROOMY,
    );
    expect(await provider.ask(post)).toEqual({
      ok: true,
      verdict: { model: 'text-moderation-stable', labels: [{ label: 'hate', score: 0.7 }] },
    });
    expect(seen[0]!.auth).toBeUndefined();
  });
});

describe('the generic HTTP adapter', () => {
  it('posts the post and reads labels as a list or as a map', async () => {
    handler = (_req, _body, res) =>
      json(res, 200, { model: 'house-model 3', labels: [{ label: 'spam', score: 0.93 }] });
    const provider = resilientProvider(
      'house',
      httpModeration({ url: `${base}/classify`, token: 't0k', model: 'house' }),
      ROOMY,
    );
    expect(await provider.ask(post)).toEqual({
      ok: true,
      verdict: { model: 'house-model 3', labels: [{ label: 'spam', score: 0.93 }] },
    });
    expect(seen[0]).toEqual({ path: '/classify', auth: 'Bearer t0k', body: { post } });

    handler = (_req, _body, res) => json(res, 200, { labels: { spam: 0.1, hate: 0 } });
    expect(await provider.ask(post)).toEqual({
      ok: true,
      verdict: {
        model: 'house',
        labels: [
          { label: 'spam', score: 0.1 },
          { label: 'hate', score: 0 },
        ],
      },
    });
  });

  it('calls an answer out of protocol a bad answer: no labels, scores out of 0–1, not JSON', async () => {
    const provider = resilientProvider('house', httpModeration({ url: base, model: 'house' }), ROOMY);
    for (const send of [
      (res: ServerResponse) => json(res, 200, {}),
      (res: ServerResponse) => json(res, 200, { labels: { spam: 7 } }),
      (res: ServerResponse) => {
        res.writeHead(200, { 'content-type': 'text/html' });
        res.end('<html>gateway</html>');
      },
    ]) {
      handler = (_req, _body, res) => send(res);
      const outcome = await provider.ask(post);
      expect(outcome).toMatchObject({ ok: false, why: 'bad answer' });
    }
  });
});

describe('timeouts, outages, the circuit breaker and the budget', () => {
  it('abandons a call that takes longer than its timeout, aborting the request', async () => {
    handler = () => undefined; // never answers
    const provider = resilientProvider('slow', httpModeration({ url: base, model: 'm' }), { ...ROOMY, timeoutMs: 100 });
    expect(await provider.ask(post)).toEqual({ ok: false, why: 'timeout', detail: 'no answer in 100 ms' });
    await expect.poll(() => abandoned).toBe(1);
  });

  it('an error status or a server that is not there is an outage, and says which', async () => {
    handler = (_req, _body, res) => json(res, 503, { error: 'overloaded' });
    const provider = resilientProvider('down', httpModeration({ url: base, model: 'm' }), ROOMY);
    expect(await provider.ask(post)).toEqual({ ok: false, why: 'outage', detail: 'HTTP 503' });

    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const gone = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`;
    await new Promise((resolve) => closed.close(resolve));
    const nowhere = resilientProvider('gone', httpModeration({ url: gone, model: 'm' }), ROOMY);
    expect(await nowhere.ask(post)).toMatchObject({ ok: false, why: 'outage' });
  });

  it('stops asking after failures in a row, then lets one call through once the pause is over', async () => {
    let failing = true;
    handler = (_req, _body, res) =>
      failing ? json(res, 500, {}) : json(res, 200, { labels: [{ label: 'ok', score: 0 }] });
    const provider = resilientProvider('flaky', httpModeration({ url: base, model: 'm' }), {
      ...ROOMY,
      failuresToOpen: 3,
      openForMs: 200,
    });
    for (let i = 0; i < 3; i++) expect(await provider.ask(post)).toMatchObject({ ok: false, why: 'outage' });
    expect(provider.state().circuit).toBe('open');
    // open: answered at once, the server not asked
    expect(await provider.ask(post)).toEqual({ ok: false, why: 'circuit open', detail: '3 failures in a row' });
    expect(seen).toHaveLength(3);
    // back: once the pause is over, a call goes through and closes the circuit
    failing = false;
    await expect.poll(async () => (await provider.ask(post)).ok, { timeout: 10_000, interval: 50 }).toBe(true);
    expect(provider.state().circuit).toBe('closed');
    expect(seen).toHaveLength(4);
  });

  it('keeps to its daily budget of calls, and starts again the next day (UTC)', async () => {
    handler = (_req, _body, res) => json(res, 200, { labels: [] });
    let now = Date.UTC(2026, 10, 29, 23, 59);
    const provider = resilientProvider('metered', httpModeration({ url: base, model: 'm' }), {
      ...ROOMY,
      dailyBudget: 2,
      now: () => now,
    });
    expect((await provider.ask(post)).ok).toBe(true);
    expect((await provider.ask(post)).ok).toBe(true);
    expect(await provider.ask(post)).toEqual({ ok: false, why: 'over budget', detail: '2 calls a day used' });
    expect(seen).toHaveLength(2);
    expect(provider.state().callsToday).toBe(2);
    now += 2 * 60_000; // past midnight
    expect((await provider.ask(post)).ok).toBe(true);
    expect(provider.state().callsToday).toBe(1);
  });
});
