// Operator tokens of the management API: what a write takes, what a read answers.
import { Type, type Static } from 'typebox';
import { ROLES } from '../domain/roles.js';
import { Instant, Nullable, NullableInstant, PositiveId, Text, recordsWithSecret, strict } from './fields.js';

export const RoleField = Type.Enum([...ROLES], {
  'x-error': `role must be ${ROLES.join(', ')}`,
  description:
    'viewer: reads; moderator: + post decisions; editor: + walls, feeds, products, tags, keys; admin: everything (accounts and tokens: unscoped admins only)',
});

export const TokenCreateBody = Type.Object(
  {
    name: Text('name', 100, { description: 'shown in the audit log' }),
    role: Type.Optional(RoleField),
    accounts: Type.Optional(
      Nullable(
        Type.Array(PositiveId('accounts'), {
          maxItems: 1000,
          'x-error': 'accounts must be a list of at most 1000 account ids, or null',
          description: 'the accounts the token is limited to; absent or null: every account',
        }),
      ),
    ),
  },
  { ...strict, examples: [{ name: 'anna', role: 'moderator', accounts: [7001] }] },
);

const tokenFields = {
  id: Type.Integer(),
  name: Type.String(),
  prefix: Type.String({ description: 'the first characters of the token' }),
  role: Type.Enum([...ROLES]),
  accounts: Nullable(
    Type.Array(Type.Integer(), { description: 'the accounts the token is limited to; null: every account' }),
  ),
  createdAt: Instant,
  lastUsedAt: NullableInstant,
  revokedAt: NullableInstant,
};

export const [TokenRecord, NewTokenRecord] = recordsWithSecret(
  tokenFields,
  'token',
  'the plaintext token (`wop_…`): shown this once, only its SHA-256 is stored',
);

export type TokenCreateBody = Static<typeof TokenCreateBody>;
