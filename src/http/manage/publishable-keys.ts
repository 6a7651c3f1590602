// Publishable keys of a wall (`pk_…`): what a web page embeds to read one
// wall through the embed API. Create (plaintext once), list, revoke.
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import {
  createPublishableKey,
  listPublishableKeys,
  ORIGINS_MAX,
  revokePublishableKey,
} from '../../manage/publishable-keys.js';
import { access } from './access.js';
import { opOf } from './auth.js';
import { created, db, doc, num, ok } from './common.js';
import { pageRequest } from '../../manage/paging.js';
import { IdString, PageQuery } from '../../schemas/fields.js';
import { Created, Ok, PageOf, responses, WallParams } from './schemas.js';

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

export async function publishableKeyRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const tag = 'manage: publishable keys';

  app.get(
    '/walls/:wallId/publishable-keys',
    {
      config: access('viewer', 'wall'),
      schema: {
        ...doc(
          tag,
          'List the publishable keys of a wall',
          'Revoked keys included. Only a prefix of each key is known.',
        ),
        params: WallParams,
        querystring: PageQuery,
        response: responses({ 200: Ok(PageOf(PublishableKeyRecord), 'a page of keys') }, 404),
      },
    },
    async (request) =>
      ok(await listPublishableKeys(db(request), num(request.params.wallId), pageRequest(request.query))),
  );

  app.post(
    '/walls/:wallId/publishable-keys',
    {
      config: access('editor', 'wall'),
      schema: {
        ...doc(
          tag,
          'Make a publishable key for a wall',
          'A read-only key for the embed API (`/api/embed/v1`), for this wall only, safe to put in a web page. ' +
            'The plaintext `key` is in this response only; Wallery stores its SHA-256.',
        ),
        params: WallParams,
        body: PublishableKeyCreateBody,
        response: responses({ 201: Created(NewPublishableKeyRecord, 'the new key, with its plaintext') }, 404, 409),
      },
    },
    async (request, reply) => {
      reply.code(201);
      return created(await createPublishableKey(opOf(request), num(request.params.wallId), request.body ?? {}));
    },
  );

  app.delete(
    '/walls/:wallId/publishable-keys/:keyId',
    {
      config: access('editor', 'wall'),
      schema: {
        ...doc(
          tag,
          'Revoke a publishable key',
          'Every instance refuses the key (401) from the next request on, and ends the streams opened with it.',
        ),
        params: PublishableKeyParams,
        response: responses({ 200: Ok(PublishableKeyRecord, 'the revoked key') }, 404, 409),
      },
    },
    async (request) =>
      ok(await revokePublishableKey(opOf(request), num(request.params.wallId), num(request.params.keyId))),
  );
}
