// A real server on the sample data with an operator token, publishable keys
// made through the management API, and callers of the embed API (every
// answer held against the OpenAPI document through `call`).
import { expect } from 'vitest';
import { CLI_ACTOR } from '../../../src/manage/op.js';
import { createOperatorToken } from '../../../src/manage/tokens.js';
import { call, JSON_TYPE, type Res } from '../../helpers/http.js';
import { NOW, sample } from '../../helpers/sample.js';
import { startTestServer, type TestServer, type TestServerOptions } from '../../helpers/server.js';

export const EMBED = '/api/embed/v1';
export const MANAGE = '/api/manage/v1';

export interface NewKey {
  id: number;
  wallId: number;
  key: string;
  prefix: string;
  origins: string[];
  createdAt: string;
  revokedAt: string | null;
}

export interface EmbedServer {
  srv: TestServer;
  token: string;
  manage(method: string, path: string, body?: unknown): Promise<Res>;
  /** a publishable key of the wall, made through the management API */
  makeKey(wallId: number, origins?: string[]): Promise<NewKey>;
  embed(path: string, query?: Record<string, string>, headers?: Record<string, string>): Promise<Res>;
  close(): Promise<void>;
}

export async function startEmbedServer(
  options: Pick<
    TestServerOptions,
    'embed' | 'now' | 'dir' | 'shared' | 'trustProxy' | 'self' | 'media' | 'data' | 'cdn'
  > = {},
): Promise<EmbedServer> {
  const srv = await startTestServer({ data: sample(), ...options, now: options.now ?? NOW });
  const made = await createOperatorToken({ db: srv.store.db, actor: CLI_ACTOR, now: srv.clock.now }, 'embed-tests');
  const manage = (method: string, path: string, body?: unknown) =>
    call(srv.baseUrl, MANAGE + path, { method, body, headers: { authorization: `Bearer ${made.token}` } });
  return {
    srv,
    token: made.token,
    manage,
    async makeKey(wallId, origins) {
      const res = await manage('POST', `/walls/${wallId}/publishable-keys`, origins ? { origins } : {});
      expect(res.status, res.text).toBe(201);
      return res.json().responseData as NewKey;
    },
    embed: (path, query = {}, headers = {}) => call(srv.baseUrl, EMBED + path, { query, headers }),
    close: () => srv.close(),
  };
}

/** An embed error: the v2 JSON envelope with the status as responseCode. */
export function embedError(res: Res, code: number, message?: RegExp): void {
  expect({ status: res.status, contentType: res.contentType, text: res.status === code ? '' : res.text }).toEqual({
    status: code,
    contentType: JSON_TYPE,
    text: '',
  });
  const body = res.json();
  expect(Object.keys(body)).toEqual(['responseCode', 'responseStatus', 'responseMessage']);
  expect(body.responseCode).toBe(code);
  expect(body.responseStatus).toBe('error');
  if (message) expect(body.responseMessage).toMatch(message);
}
