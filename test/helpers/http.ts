// Real-HTTP helpers for the contract tests: global fetch against a running
// server, and the checks every envelope must pass (contract §1). Every answer
// `call()` receives from a test server is also held against the server's
// OpenAPI document (conformance.ts); a departure fails the test.
import { expect } from 'vitest';
import { recordExchange } from './conformance.js';
import { parseXmlDoc, type XEl, type XmlDoc } from './xml.js';

export const KEYS = {
  /** enterprise account 7001 (both families), first key */
  ent: 'Demo-ent-key-0001',
  /** enterprise account 7001, second key */
  ent2: 'Demo-ent-key-0002',
  /** widget account 7002 */
  wid: 'Demo-wid-key-0001',
  /** commerce account 7003 */
  com: 'Demo-com-key-0001',
  /** free account 7004 */
  free: 'Demo-free-key-0001',
  /** enterprise account 7005, dailyCallLimit 5 */
  tiny: 'Demo-tiny-key-0001',
} as const;

export const JSON_TYPE = 'application/json; charset=utf-8';
export const XML_TYPE = 'application/xml; charset=utf-8';

export const MSG = {
  unauthorized: 'API is not available in this plan OR Wrong user key!',
  quota: 'Daily API call limit reached',
  wallNotFound: 'Wall not found',
  postNotFound: 'Post not found',
  notFound: 'Not found',
  methodNotAllowed: 'Method not allowed',
  tooLarge: 'Request body too large',
  format: 'format must be json or xml',
  limit: 'limit must be an integer from 1 to 500',
  created: 'Great! You have successfully created post.',
  deletedWall: 'You have successfully deleted your wall.',
  deletedGallery: 'You have successfully deleted your gallery.',
} as const;

export type Query = Record<string, string | number | boolean | undefined> | string;

export function queryString(query: Query | undefined): string {
  if (query === undefined) return '';
  if (typeof query === 'string') return query === '' ? '' : `?${query.replace(/^\?/, '')}`;
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined) params.append(k, String(v));
  const s = params.toString();
  return s === '' ? '' : `?${s}`;
}

export interface Res {
  status: number;
  headers: Headers;
  contentType: string | null;
  text: string;
  /** the body parsed as JSON (throws when it is not JSON) */
  json(): Record<string, unknown>;
  /** the body parsed as an XML document (throws when it is not well-formed) */
  xml(): XmlDoc;
}

export interface CallOptions {
  method?: string;
  query?: Query;
  /** a value is sent as JSON; a string is sent as is */
  body?: unknown;
  headers?: Record<string, string>;
}

export async function call(baseUrl: string, path: string, options: CallOptions = {}): Promise<Res> {
  const headers: Record<string, string> = { ...(options.headers ?? {}) };
  let body: string | undefined;
  if (options.body !== undefined) {
    body = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
    if (!Object.keys(headers).some((h) => h.toLowerCase() === 'content-type'))
      headers['content-type'] = 'application/json';
  }
  const url = path + queryString(options.query);
  const method = options.method ?? (options.body !== undefined ? 'POST' : 'GET');
  const response = await fetch(baseUrl + url, { method, headers, body });
  const text = await response.text();
  recordExchange(baseUrl, { method, url, status: response.status, headers: response.headers, body: text });
  return {
    status: response.status,
    headers: response.headers,
    contentType: response.headers.get('content-type'),
    text,
    json: () => JSON.parse(text) as Record<string, unknown>,
    xml: () => parseXmlDoc(text),
  };
}

export const get = (baseUrl: string, path: string, query?: Query) => call(baseUrl, path, { query });

/** Deeply lists every object key path in order, so that key ORDER can be compared. */
export function keyPaths(value: unknown, prefix = ''): string[] {
  if (Array.isArray(value)) return value.flatMap((v, i) => keyPaths(v, `${prefix}[${i}]`));
  if (value !== null && typeof value === 'object') {
    return Object.entries(value as Record<string, unknown>).flatMap(([k, v]) => [
      `${prefix}.${k}`,
      ...keyPaths(v, `${prefix}.${k}`),
    ]);
  }
  return [];
}

/** Same values AND same key order at every level. */
export function expectSameOrdered(actual: unknown, expected: unknown): void {
  expect(actual).toStrictEqual(expected);
  expect(keyPaths(actual)).toEqual(keyPaths(expected));
}

/** A JSON success response: status 200, JSON content type, exactly this envelope in this order. */
export function expectJsonData(res: Res, responseData: unknown): void {
  expect(res.status).toBe(200);
  expect(res.contentType).toBe(JSON_TYPE);
  expectSameOrdered(res.json(), { responseCode: 200, responseStatus: 'success', responseData });
}

export function expectJsonMessage(res: Res, responseMessage: string): void {
  expect(res.status).toBe(200);
  expect(res.contentType).toBe(JSON_TYPE);
  expectSameOrdered(res.json(), { responseCode: 200, responseStatus: 'success', responseMessage });
}

/** An XML success response whose whole tree is the contract's rendering of this envelope. */
export function expectXmlTree(res: Res, expected: XEl, status = 200): void {
  expect(res.status).toBe(status);
  expect(res.contentType).toBe(XML_TYPE);
  expect(res.text.split('\n', 1)[0]).toBe('<?xml version="1.0" encoding="UTF-8"?>');
  expect(res.xml().tree).toStrictEqual(expected);
}

/** An error in JSON: status line == responseCode, order code, status, message. */
export function expectJsonError(res: Res, code: number, message?: string | RegExp): void {
  expect({ status: res.status, contentType: res.contentType }).toEqual({ status: code, contentType: JSON_TYPE });
  const body = res.json();
  expect(Object.keys(body)).toEqual(['responseCode', 'responseStatus', 'responseMessage']);
  expect(body.responseCode).toBe(code);
  expect(body.responseStatus).toBe('error');
  expect(typeof body.responseMessage).toBe('string');
  if (typeof message === 'string') expect(body.responseMessage).toBe(message);
  else if (message) expect(body.responseMessage).toMatch(message);
}

/** An error in XML: status line == responseCode, order status, message, code. */
export function expectXmlError(res: Res, code: number, message?: string | RegExp): void {
  expect({ status: res.status, contentType: res.contentType }).toEqual({ status: code, contentType: XML_TYPE });
  const doc = res.xml();
  expect(doc.root).toBe('xml');
  expect(doc.children.map((c) => Object.keys(c)[0])).toEqual(['responseStatus', 'responseMessage', 'responseCode']);
  const [status, msg, codeEl] = doc.children as [XEl, XEl, XEl];
  expect(status.responseStatus).toBe('error');
  expect(codeEl.responseCode).toBe(String(code));
  expect(typeof msg.responseMessage).toBe('string');
  if (typeof message === 'string') expect(msg.responseMessage).toBe(message);
  else if (message) expect(msg.responseMessage).toMatch(message);
}

/** An error in the format named (checks both the JSON and the XML rules). */
export function expectError(res: Res, format: 'json' | 'xml', code: number, message?: string | RegExp): void {
  if (format === 'xml') expectXmlError(res, code, message);
  else expectJsonError(res, code, message);
}

/** The message of an error response in either format. */
export function errorMessage(res: Res): string {
  if (res.contentType === XML_TYPE) {
    const el = res.xml().children.find((c) => 'responseMessage' in c);
    return String(el?.responseMessage);
  }
  return String(res.json().responseMessage);
}
