// Publishable keys of a wall (`pk_…`): what a web page embeds to read one
// wall through the embed API. Create (plaintext once), list, revoke.
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import {
  createPublishableKey,
  listPublishableKeys,
  ORIGINS_MAX,
  revokePublishableKey,
} from '../../manage/publishable-keys.js';
import { opOf } from './auth.js';
import { manageRoute } from './route.js';
import { db, num } from './common.js';
import { pageRequest } from '../../manage/paging.js';
import { IdString, PageQuery } from '../../schemas/fields.js';
import { PageOf, WallParams } from './schemas.js';

const ORIGIN_MESSAGE = 'each origin must be an origin: http(s)://host[:port], without a path';

export const PublishableKeyParams = Type.Object({ wallId: IdString('wallId'), keyId: IdString('keyId') });

export const PublishableKeyCreateBody = Type.Object(
  {
    origins: Type.Optional(
      Type.Array(Type.String({ minLength: 1, maxLength: 300, 'x-error': ORIGIN_MESSAGE }), {
        maxItems: ORIGINS_MAX,
        'x-error': `origins must be a list of at most ${ORIGINS_MAX} origins`,
        description: 'the web origins (scheme://host[:port]) whose pages may use the key; empty or absent: any origin',
      }),
    ),
  },
  {
    additionalProperties: false,
    examples: [{ origins: ['https://shop.example', 'http://localhost:8080'] }],
  },
);

const keyFields = {
  id: Type.Integer(),
  wallId: Type.Integer(),
  prefix: Type.String({ description: '`pk_` and the first characters of the key' }),
  origins: Type.Array(Type.String(), { description: 'normalised origins allowed to use the key; [] = any origin' }),
  createdAt: Type.String({ format: 'date-time', description: 'ISO 8601 UTC' }),
  revokedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
};

export const PublishableKeyRecord = Type.Object(keyFields, { additionalProperties: false });
export const NewPublishableKeyRecord = Type.Object(
  {
    ...keyFields,
    key: Type.String({ description: 'the plaintext key (`pk_…`): shown this once, only its SHA-256 is stored' }),
  },
  { additionalProperties: false },
);

export async function publishableKeyRoutes(app: FastifyInstance) {
  const tag = 'manage: publishable keys';
  const route = manageRoute(app, tag);

  route.get(
    '/walls/:wallId/publishable-keys',
    {
      access: ['viewer', 'wall'],
      summary: 'List the publishable keys of a wall',
      description: 'Revoked keys included. Only a prefix of each key is known.',
      params: WallParams,
      query: PageQuery,
      ok: [200, PageOf(PublishableKeyRecord), 'a page of keys'],
      errors: [404],
    },
    async (request) => await listPublishableKeys(db(request), num(request.params.wallId), pageRequest(request.query)),
  );

  route.post(
    '/walls/:wallId/publishable-keys',
    {
      access: ['editor', 'wall'],
      summary: 'Make a publishable key for a wall',
      description:
        'A read-only key for the embed API (`/api/embed/v1`), for this wall only, safe to put in a web page. ' +
        'The plaintext `key` is in this response only; Wallery stores its SHA-256.',
      params: WallParams,
      body: PublishableKeyCreateBody,
      ok: [201, NewPublishableKeyRecord, 'the new key, with its plaintext'],
      errors: [404, 409],
    },
    async (request) => {
      return createPublishableKey(opOf(request), num(request.params.wallId), request.body ?? {});
    },
  );

  route.delete(
    '/walls/:wallId/publishable-keys/:keyId',
    {
      access: ['editor', 'wall'],
      summary: 'Revoke a publishable key',
      description:
        'Every instance refuses the key (401) from the next request on, and ends the streams opened with it.',
      params: PublishableKeyParams,
      ok: [200, PublishableKeyRecord, 'the revoked key'],
      errors: [404, 409],
    },
    async (request) => await revokePublishableKey(opOf(request), num(request.params.wallId), num(request.params.keyId)),
  );
}
