// What the management route modules share: envelopes, paging, the
// operation context and the OpenAPI annotations of a route.
import type { FastifyRequest } from 'fastify';

export const ok = <T>(data: T) => ({
  responseCode: 200 as const,
  responseStatus: 'success' as const,
  responseData: data,
});
export const created = <T>(data: T) => ({
  responseCode: 201 as const,
  responseStatus: 'success' as const,
  responseData: data,
});

/** A validated id string (digits, at most 15 significant) as a number. */
export const num = (digits: string) => Number(digits);
export const optNum = (digits: string | undefined) => (digits === undefined ? undefined : Number(digits));

export const db = (request: FastifyRequest) => request.server.ctx.store.db;

/** OpenAPI annotations of a management route. */
export const doc = (tag: string, summary: string, description?: string) => ({
  tags: [tag],
  summary,
  ...(description ? { description } : {}),
  security: [{ operatorToken: [] as string[] }],
});

// What the documents say of every kind of key (user keys, publishable keys, operator tokens).
export const onlyPrefixKnown = (what: string) => `Only a prefix of each ${what} is known.`;
export const plaintextOnce = (field: string) =>
  `The plaintext \`${field}\` is in this response only; Wallery stores its SHA-256.`;
