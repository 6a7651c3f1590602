// What the webhook suites share: a real HTTP receiver on 127.0.0.1 that
// verifies every signature the way the README's snippet does, and `emit`,
// which makes a change-log row.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { sql } from 'kysely';
import type { Store } from '../../src/store/store.js';

export interface Received {
  eventId: string;
  type: string;
  body: Record<string, unknown>;
  /** the signature checked as the README's snippet does */
  verified: boolean;
  headers: IncomingMessage['headers'];
}

/** The README's verification snippet, as a receiver runs it. */
export function verifyLikeReadme(secret: string, header: string, rawBody: string, toleranceS = 300): boolean {
  const parts = Object.fromEntries(header.split(',').map((kv) => kv.split('=') as [string, string]));
  const t = Number(parts.t);
  if (!Number.isInteger(t) || Math.abs(Date.now() / 1000 - t) > toleranceS) return false;
  const expected = createHmac('sha256', secret).update(`${t}.${rawBody}`).digest();
  const given = Buffer.from(parts.v1 ?? '', 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
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
          verified: verifyLikeReadme(this.secret, String(req.headers['wallery-signature'] ?? ''), raw),
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

export interface ChangeSpec {
  kind:
    | 'created'
    | 'updated'
    | 'approved'
    | 'rejected'
    | 'hidden'
    | 'deleted'
    | 'wall_deleted'
    | 'feed_failing'
    | 'feed_recovered';
  postId?: number;
  wallId?: number;
  feedId?: number;
  visible?: boolean;
  at?: number;
}

/**
 * A change-log row, as the store's triggers would write it for that change
 * (while the change log is the stub of src/store/change-log.ts: written
 * straight into its table). Returns the row's seq.
 */
export async function emit(store: Store, c: ChangeSpec): Promise<number> {
  const db = store.db;
  const seqType = store.name === 'postgres' ? 'bigserial primary key' : 'integer primary key autoincrement';
  await sql
    .raw(
      `create table if not exists change_log_stub (seq ${seqType}, account_id bigint not null, wall_id bigint not null,
       post_id bigint, feed_id bigint, kind text not null, visible integer not null, at bigint not null)`,
    )
    .execute(db);
  let wallId = c.wallId;
  if (c.postId !== undefined) {
    const post = await db.selectFrom('posts').select('wall_id').where('id', '=', c.postId).executeTakeFirstOrThrow();
    wallId = post.wall_id;
  }
  const wall = await db.selectFrom('walls').select('account_id').where('id', '=', wallId!).executeTakeFirstOrThrow();
  const visible = c.visible ?? ['created', 'approved', 'updated'].includes(c.kind);
  const { rows } = await sql<{
    seq: number;
  }>`insert into change_log_stub (account_id, wall_id, post_id, feed_id, kind, visible, at)
    values (${wall.account_id}, ${wallId!}, ${c.postId ?? null}, ${c.feedId ?? null}, ${c.kind}, ${visible ? 1 : 0}, ${c.at ?? Date.now()})
    returning seq`.execute(db);
  return Number(rows[0]!.seq);
}
