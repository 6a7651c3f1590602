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
import { manageResource } from './resource.js';
import { db, num, onlyPrefixKnown, plaintextOnce } from './common.js';
import { pageRequest } from '../../manage/paging.js';
import { IdString } from '../../schemas/fields.js';
import { WallParams } from './schemas.js';

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
  const keys = manageResource(app, 'manage: publishable keys', {
    record: [PublishableKeyRecord, 'key'],
    collection: ['/walls/:wallId/publishable-keys', WallParams],
    item: ['/walls/:wallId/publishable-keys/:keyId', PublishableKeyParams],
  });

  keys.list(
    {
      access: ['viewer', 'wall'],
      summary: 'List the publishable keys of a wall',
      description: `Revoked keys included. ${onlyPrefixKnown('key')}`,
    },
    async (request) => await listPublishableKeys(db(request), num(request.params.wallId), pageRequest(request.query)),
  );

  keys.create(
    {
      access: ['editor', 'wall'],
      summary: 'Make a publishable key for a wall',
      description:
        'A read-only key for the embed API (`/api/embed/v1`), for this wall only, safe to put in a web page. ' +
        plaintextOnce('key'),
      body: PublishableKeyCreateBody,
      ok: [NewPublishableKeyRecord, 'the new key, with its plaintext'],
    },
    async (request) => createPublishableKey(opOf(request), num(request.params.wallId), request.body ?? {}),
  );

  keys.remove(
    {
      access: ['editor', 'wall'],
      summary: 'Revoke a publishable key',
      description:
        'Every instance refuses the key (401) from the next request on, and ends the streams opened with it.',
      answer: 'the revoked key',
    },
    async (request) => await revokePublishableKey(opOf(request), num(request.params.wallId), num(request.params.keyId)),
  );
}
