// What the webhook suites share: a real HTTP receiver on 127.0.0.1 that
// verifies every signature the way the receiver snippet of
// docs/guides/webhooks-and-change-feed.md does, `emit`, which makes a
// change-log row, and the settings a management server and its delivery
// worker run with in the tests that subscribe through the API.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { WebhookConfig } from '../../src/config.js';
import type { Store } from '../../src/store/store.js';

/** A management server's webhook settings (AppContext.webhooks): a key, loopback receivers allowed. */
export const WEBHOOK_SETTINGS = {
  secretKey: Buffer.alloc(32, 9),
  timeoutMs: 5_000,
  allowPrivateNetworks: ['127.0.0.0/8'],
};
/** Its delivery worker: quick ticks, retries within seconds. */
export const WEBHOOK_CONFIG: WebhookConfig = {
  ...WEBHOOK_SETTINGS,
  enabled: true,
  tickMs: 50,
  retryMinS: 1,
  retryMaxS: 2,
  giveUpS: 86_400,
  leaseMs: 10_000,
  logRetentionDays: 30,
};

export interface Received {
  eventId: string;
  type: string;
  body: Record<string, unknown>;
  /** the signature checked as the guide's receiver snippet does */
  verified: boolean;
  headers: IncomingMessage['headers'];
}

/** The verification snippet of docs/guides/webhooks-and-change-feed.md, as a receiver runs it. */
export function verifyLikeTheGuide(secret: string, header: string, rawBody: string, toleranceS = 300): boolean {
  const parts = header.split(',').map((kv) => kv.split('='));
  const t = Number(parts.find(([k]) => k === 't')?.[1]);
  if (!Number.isInteger(t) || Math.abs(Date.now() / 1000 - t) > toleranceS) return false;
  const expected = createHmac('sha256', secret).update(`${t}.${rawBody}`).digest();
  return parts
    .filter(([k]) => k === 'v1')
    .map(([, v]) => Buffer.from(v ?? '', 'hex'))
    .some((given) => given.length === expected.length && timingSafeEqual(given, expected));
}

export type Mode = 'ok' | 'fail' | 'hold';

export class Receiver {
  readonly received: Received[] = [];
  /** answer 2xx (ok), 503 (fail), or keep the request open until released (hold) */
  mode: Mode = 'ok';
  secret = '';
  private held: ServerResponse[] = [];
  private server: Server;
  url = '';

  constructor() {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        const entry: Received = {
          eventId: String(req.headers['wallery-event-id'] ?? ''),
          type: String(req.headers['wallery-event-type'] ?? ''),
          body: raw ? (JSON.parse(raw) as Record<string, unknown>) : {},
          verified: verifyLikeTheGuide(this.secret, String(req.headers['wallery-signature'] ?? ''), raw),
          headers: req.headers,
        };
        if (this.mode === 'fail') {
          res.writeHead(503).end('down');
          this.failed.push(entry);
          return;
        }
        this.received.push(entry);
        if (this.mode === 'hold') {
          this.held.push(res);
          return;
        }
        res.writeHead(204).end();
      });
    });
  }

  /** answers refused with 503 */
  readonly failed: Received[] = [];

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    const { port } = this.server.address() as { port: number };
    this.url = `http://127.0.0.1:${port}/hook`;
    return this;
  }

  /** ids of the events received and answered 2xx (or held), in arrival order */
  ids(): string[] {
    return this.received.map((r) => r.eventId);
  }

  releaseHeld(): void {
    for (const res of this.held.splice(0)) if (!res.destroyed) res.writeHead(204).end();
  }

  async close(): Promise<void> {
    for (const res of this.held.splice(0)) res.destroy();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

export type PostChange = 'approved' | 'rejected' | 'hidden' | 'deleted' | 'updated' | 'held';

/**
 * Makes a post change the way any writer does — a plain UPDATE or DELETE of
 * the row — so that the store's triggers log it (migration 0015). Returns
 * the seq of the change `kind` (a step before it, to put the post where the
 * change can happen, logs an `updated` first when needed).
 */
export async function emit(store: Store, kind: PostChange, postId: number): Promise<number> {
  const db = store.db;
  const posts = () => db.updateTable('posts').where('id', '=', postId);
  switch (kind) {
    case 'approved':
      await posts().set({ state: 'pending' }).where('state', '=', 'approved').execute();
      await posts().set({ state: 'approved' }).execute();
      break;
    case 'rejected':
      await posts().set({ state: 'pending' }).where('state', '=', 'rejected').execute();
      await posts().set({ state: 'rejected' }).execute();
      break;
    case 'hidden':
      await posts().set({ hidden: 0 }).where('hidden', '=', 1).execute();
      await posts().set({ hidden: 1 }).execute();
      break;
    case 'held': {
      // a rule's explained hold, as ingestion or the image check writes it (migration 0027 logs it `held`)
      const detail = { rule: 'r9', kind: 'image', label: 'porn', score: 0.91, threshold: 0.8, model: 'nsfwjs test' };
      await posts()
        .set({
          state: 'pending',
          decided_by: 'rule:r9',
          decision_reason: "held: image 0.91 'porn' ≥ 0.80 — nsfwjs test",
          decision_detail: JSON.stringify(detail),
        })
        .execute();
      break;
    }
    case 'updated':
      await posts()
        .set((eb) => ({ content: eb('content', '||', ' ') }))
        .execute();
      break;
    case 'deleted':
      await db.deleteFrom('post_products').where('post_id', '=', postId).execute();
      await db.deleteFrom('posts').where('id', '=', postId).execute();
      break;
  }
  const row = await db
    .selectFrom('changes')
    .select('seq')
    .where('post_id', '=', postId)
    .where('kind', '=', kind)
    .orderBy('seq', 'desc')
    .limit(1)
    .executeTakeFirstOrThrow();
  return Number(row.seq);
}
