// Connections (an account's credentials for a network): what a write takes,
// what a read answers. The secret fields are write-only: no answer carries
// them, only `tokenHint` (the last 4 characters) to tell two apart.
import { Type, type Static, type TSchema } from 'typebox';
import { AUTH_KINDS, CONNECTION_NETWORKS, CONNECTION_STATUSES } from '../domain/connections.js';
import { ConnectorSettings } from './connectors.js';
import { Instant, Nullable, NullableInstant, Record, Text, Url, patch, strict } from './fields.js';

const SECRET_MAX = 4096;

const Secret = (name: string, description: string) =>
  Type.String({
    minLength: 1,
    maxLength: SECRET_MAX,
    pattern: '^\\S+$',
    'x-error': `${name} must be 1 to ${SECRET_MAX} characters without spaces`,
    'x-secret': true,
    writeOnly: true,
    description,
  });

const secretFields = {
  accessToken: Type.Optional(
    Secret('accessToken', 'the OAuth access token, bearer token or personal access token (authKind token)'),
  ),
  refreshToken: Type.Optional(Secret('refreshToken', 'the OAuth refresh token, when the network gives one')),
  apiKey: Type.Optional(Secret('apiKey', 'the API key (authKind api_key): Flickr, YouTube Data API, Tumblr')),
  apiSecret: Type.Optional(Secret('apiSecret', 'the API secret that goes with the key, when the network has one')),
};

export const Network = Type.Enum([...CONNECTION_NETWORKS], {
  'x-error': `network must be one of ${CONNECTION_NETWORKS.join(', ')}`,
  description: 'the network the credentials are for',
});

const ExpiresAt = Type.String({
  format: 'date-time',
  'x-error': 'expiresAt must be an ISO 8601 date-time such as 2026-03-01T12:00:00Z',
  description: 'when the access token expires (ISO 8601); absent or null: it does not',
});

const otherFields = {
  instance: Type.Optional(Url('instance')),
  externalAccountId: Type.Optional(Text('externalAccountId', 300)),
  externalAccountName: Type.Optional(Text('externalAccountName', 300)),
};

export const ConnectionCreateBody = Type.Object(
  {
    network: Network,
    name: Text('name', 200, { description: 'what the operator calls it ("Brand Instagram")' }),
    authKind: Type.Enum(['token', 'api_key'], {
      'x-error': 'authKind must be token or api_key (OAuth connections are made by the connect flow)',
      description: 'token: accessToken is required; api_key: apiKey is required',
    }),
    ...secretFields,
    ...otherFields,
    scopes: Type.Optional(
      Type.Array(Type.String({ minLength: 1, maxLength: 200 }), {
        maxItems: 50,
        'x-error': 'scopes must be a list of at most 50 permission names',
        description: 'the permissions the token was granted, as the network names them',
      }),
    ),
    expiresAt: Type.Optional(Nullable(ExpiresAt)),
  },
  {
    ...strict,
    examples: [
      {
        network: 'mastodon',
        name: 'Our GoToSocial account',
        authKind: 'token',
        accessToken: 'ZA-Yj3aBD8U8Cm7lKUp-lm9O9BmDgdhHzDeqsY8tlL0',
        instance: 'https://social.example',
      },
    ],
  },
);

export const ConnectionPatchBody = Type.Object(
  {
    name: Type.Optional(Text('name', 200)),
    ...secretFields,
    ...otherFields,
    expiresAt: Type.Optional(Nullable(ExpiresAt)),
  },
  {
    ...patch,
    description:
      'Giving any secret field reconnects: the stored secret is replaced by the fields given (absent ones are dropped), and the status is active again.',
    examples: [{ name: 'Brand Instagram (old)' }, { accessToken: 'IGQVJ…new', expiresAt: '2026-03-16T12:00:00Z' }],
  },
);

export const ConnectionRecord = Record({
  id: Type.Integer(),
  accountId: Type.Integer(),
  network: Type.String({ description: 'instagram, facebook, threads, tiktok, youtube, x, mastodon, …' }),
  name: Type.String(),
  authKind: Type.Enum([...AUTH_KINDS], {
    description: 'oauth (the connect flow), token (a pasted token), api_key',
  }),
  instance: Nullable(Type.String({ description: 'a federated network’s server' })),
  externalAccountId: Nullable(Type.String({ description: 'the network account it signed in as' })),
  externalAccountName: Nullable(Type.String()),
  scopes: Type.Array(Type.String(), { description: 'the permissions granted' }),
  status: Type.Enum([...CONNECTION_STATUSES], {
    description:
      'active; failing: the network refused a call (a permission missing, a key not valid) — tried again on the next poll; expired, revoked: waits for a reconnect',
  }),
  statusDetail: Nullable(Type.String({ description: 'what the network said when it refused the connection' })),
  statusAt: NullableInstant,
  statusText: Type.String({
    description: 'the status in words: "active, no expiry", "expires in 5 days", "revoked by the user on 14 Jan 2026"',
  }),
  expiresAt: NullableInstant,
  refreshExpiresAt: NullableInstant,
  refreshedAt: NullableInstant,
  lastUsedAt: NullableInstant,
  tokenHint: Nullable(
    Type.String({
      description: 'the last 4 characters of the token or key (`…wxyz`); the secret itself is never shown',
    }),
  ),
  usedBy: Type.Array(Type.Integer(), { description: 'the ids of the feeds that read with it' }),
  createdAt: Instant,
  updatedAt: Instant,
});

export type ConnectionCreateBody = Static<typeof ConnectionCreateBody>;
export type ConnectionPatchBody = Static<typeof ConnectionPatchBody>;
export type ConnectionRecord = Static<typeof ConnectionRecord>;

// ---------- which connector kinds read with which network ----------

type KindSchema = {
  'x-network'?: unknown;
  properties?: { kind?: { const?: unknown }; connectionId?: { 'x-network'?: unknown } };
};

/**
 * The network each connector kind's connection must be for: its schema's
 * `'x-network'` (a kind that needs a connection), or its `connectionId`
 * field's (one that may read with one); kinds without take no `connectionId`.
 */
export const NETWORK_OF_KIND: ReadonlyMap<string, string> = new Map(
  (ConnectorSettings.anyOf as TSchema[]).flatMap((schema) => {
    const { properties } = schema as KindSchema;
    const kind = properties?.kind?.const;
    const network = (schema as KindSchema)['x-network'] ?? properties?.connectionId?.['x-network'];
    return typeof kind === 'string' && typeof network === 'string' ? [[kind, network] as const] : [];
  }),
);
