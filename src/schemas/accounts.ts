// Accounts and their user keys: what a write takes, what a read answers.
import { Type, type Static } from 'typebox';
import { PLANS, spoken } from '../domain/lists.js';
import { Instant, NullableInstant, Record, Text, patch, recordsWithSecret, strict } from './fields.js';

export const Plan = Type.Enum(PLANS, {
  'x-error': `plan must be ${spoken(PLANS)}`,
  description: 'widget: W1–W4; commerce: C1–C5; enterprise: both; free: no API access',
});
export const DailyCallLimit = Type.Integer({
  minimum: 0,
  maximum: 1_000_000_000,
  'x-error': 'dailyCallLimit must be an integer from 0 to 1000000000',
  description: 'calls per UTC day shared by all the account’s keys (default 1000)',
});

export const AccountCreateBody = Type.Object(
  { name: Text('name', 200), plan: Plan, dailyCallLimit: Type.Optional(DailyCallLimit) },
  { ...strict, examples: [{ name: 'Harbour Festival', plan: 'enterprise', dailyCallLimit: 5000 }] },
);
export const AccountPatchBody = Type.Object(
  { name: Type.Optional(Text('name', 200)), plan: Type.Optional(Plan), dailyCallLimit: Type.Optional(DailyCallLimit) },
  { ...patch, examples: [{ plan: 'commerce' }] },
);

export const AccountRecord = Record({
  id: Type.Integer(),
  name: Type.String(),
  plan: Type.Enum(PLANS),
  dailyCallLimit: Type.Integer(),
  createdAt: Instant,
});

export const UsageRecord = Record({
  accountId: Type.Integer(),
  dailyCallLimit: Type.Integer(),
  days: Type.Array(Record({ day: Type.String({ format: 'date', description: 'UTC day' }), calls: Type.Integer() }), {
    description:
      'the last 30 UTC days, oldest first, today last. Today counts the calls answered as the answering instance ' +
      'knows them; with several instances on one store it can run ahead by calls another instance has reserved but ' +
      'not answered yet (the quota counter reserves calls in small blocks), which settles when that instance sees ' +
      'the next day or stops.',
  }),
});

export const userKeyFields = {
  id: Type.Integer(),
  accountId: Type.Integer(),
  prefix: Type.String({ description: 'first characters of the key' }),
  createdAt: Instant,
  lastUsedAt: Type.Union([Instant, Type.Null()], { description: 'to the minute' }),
  revokedAt: NullableInstant,
};

export const [UserKeyRecord, NewUserKeyRecord] = recordsWithSecret(
  userKeyFields,
  'key',
  'the plaintext key: shown this once, only its SHA-256 is stored',
);

// ---------- the types of the shapes above ----------

export type AccountRecord = Static<typeof AccountRecord>;
export type UsageRecord = Static<typeof UsageRecord>;
export type UserKeyRecord = Static<typeof UserKeyRecord>;
export type NewUserKeyRecord = Static<typeof NewUserKeyRecord>;
export type AccountInput = Static<typeof AccountCreateBody>;
export type AccountPatch = Static<typeof AccountPatchBody>;
