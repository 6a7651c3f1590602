// A real Wallery server on the sample data with an operator token, and
// callers for the management API (Bearer token) and the public API v2.
import { expect } from 'vitest';
import type { Change } from '../../../src/store/changes.js';
import { CLI_ACTOR } from '../../../src/manage/op.js';
import { createOperatorToken } from '../../../src/manage/tokens.js';
import { call, JSON_TYPE, KEYS, type Res } from '../../helpers/http.js';
import { NOW, sample } from '../../helpers/sample.js';
import { startTestServer, type TestServer } from '../../helpers/server.js';

export const BASE = '/api/manage/v1';

export interface ManageServer {
  srv: TestServer;
  token: string;
  /** a management call with the server's token (or `token`, or none with null) */
  api(method: string, path: string, body?: unknown, token?: string | null): Promise<Res>;
  /** a public v2 GET with the enterprise key of account 7001 unless `key` is given */
  v2(path: string, query?: Record<string, string>, key?: string): Promise<Res>;
  /** the changes published while `fn` runs */
  changesDuring(fn: () => Promise<unknown>): Promise<Change[]>;
  close(): Promise<void>;
}

export async function makeToken(srv: TestServer, name: string): Promise<{ id: number; token: string }> {
  const made = await createOperatorToken({ db: srv.store.db, actor: CLI_ACTOR, now: srv.clock.now }, name);
  return { id: made.id, token: made.token };
}

export async function startManageServer(options: { now?: number } = {}): Promise<ManageServer> {
  const srv = await startTestServer({ data: sample(), now: options.now ?? NOW });
  const { token } = await makeToken(srv, 'test-operator');
  const api = (method: string, path: string, body?: unknown, as: string | null = token) =>
    call(srv.baseUrl, BASE + path, { method, body, headers: as === null ? {} : { authorization: `Bearer ${as}` } });
  return {
    srv,
    token,
    api,
    v2: (path, query = {}, key = KEYS.ent) =>
      call(srv.baseUrl, `/api/v2${path}`, { query: { user_key: key, ...query } }),
    async changesDuring(fn) {
      const seen: Change[] = [];
      const stop = srv.app.ctx.changes.subscribe((c) => seen.push(c));
      try {
        await fn();
      } finally {
        stop();
      }
      return seen;
    },
    close: () => srv.close(),
  };
}

/** A management success: status = responseCode, JSON, the envelope in order; returns responseData. */
export function data<T = Record<string, unknown>>(res: Res, code = 200): T {
  expect({ status: res.status, contentType: res.contentType, body: res.status === code ? '' : res.text }).toEqual({
    status: code,
    contentType: JSON_TYPE,
    body: '',
  });
  const body = res.json();
  expect(Object.keys(body)).toEqual(['responseCode', 'responseStatus', 'responseData']);
  expect(body.responseCode).toBe(code);
  expect(body.responseStatus).toBe('success');
  return body.responseData as T;
}

export interface FieldError {
  field: string;
  message: string;
}

/** A management error: the v2 envelope, plus fieldErrors on a 400 (returned). */
export function failure(res: Res, code: number, message?: string | RegExp): FieldError[] {
  expect({ status: res.status, contentType: res.contentType }).toEqual({ status: code, contentType: JSON_TYPE });
  const body = res.json();
  expect(body.responseCode).toBe(code);
  expect(body.responseStatus).toBe('error');
  expect(typeof body.responseMessage).toBe('string');
  if (typeof message === 'string') expect(body.responseMessage).toBe(message);
  else if (message) expect(body.responseMessage).toMatch(message);
  if (code === 400) {
    expect(Object.keys(body)).toEqual(['responseCode', 'responseStatus', 'responseMessage', 'fieldErrors']);
    const errors = body.fieldErrors as FieldError[];
    expect(errors.length).toBeGreaterThan(0);
    return errors;
  }
  expect(Object.keys(body)).toEqual(['responseCode', 'responseStatus', 'responseMessage']);
  return [];
}

/** The fields a 400 names. */
export const fields = (errors: FieldError[]) => errors.map((e) => e.field);

/** W2 posts of a wall (JSON), as the public API shows them. */
export async function w2Posts(m: ManageServer, wallId: number, query: Record<string, string> = {}) {
  const res = await m.v2(`/widget/posts/${wallId}`, { limit: '500', ...query });
  expect(res.status).toBe(200);
  return (res.json().responseData as { posts: Record<string, unknown>[] }[])[0]!.posts;
}

/** C2 posts of a gallery (JSON). */
export async function c2Posts(m: ManageServer, wallId: number, query: Record<string, string> = {}) {
  const res = await m.v2(`/commerce/getGalleryPosts/${wallId}/`, { limit: '500', ...query });
  expect(res.status).toBe(200);
  return (res.json().responseData as { feeds: Record<string, unknown>[] }[])[0]!.feeds;
}
