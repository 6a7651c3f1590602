// The OAuth connect flow's management routes (src/http/manage/connect.ts):
// what the console is told of each network, what starting a sign-in takes
// and what it answers.
import { Type, type Static } from 'typebox';
import { Bool, Instant, Nullable, OptText, PositiveId, Record, strict } from './fields.js';

const NetworkName = Type.String({
  pattern: '^[a-z]{1,30}$',
  'x-error': 'network must be a network name in lower case, such as instagram or pixelfed',
  description:
    'the connection network: instagram, facebook, threads, tiktok, youtube, x, reddit, tumblr, pixelfed, misskey',
});

export const ConnectStartBody = Type.Object(
  {
    network: NetworkName,
    name: Type.Optional(OptText('name', 200)),
    instance: Type.Optional(OptText('instance', 300)),
    connectionId: Type.Optional(PositiveId('connectionId')),
  },
  {
    ...strict,
    examples: [{ network: 'x' }, { network: 'pixelfed', instance: 'https://pixelfed.social' }],
  },
);
export type ConnectStartBody = Static<typeof ConnectStartBody>;

export const ConnectStartRecord = Record({
  authorizationUrl: Type.String({
    description: "the network's sign-in page: open it in the browser (a full-page navigation)",
  }),
  expiresAt: Instant,
});
export type ConnectStartRecord = Static<typeof ConnectStartRecord>;

const CredentialFieldRecord = Record({
  key: Type.Union([
    Type.Literal('accessToken'),
    Type.Literal('apiKey'),
    Type.Literal('apiSecret'),
    Type.Literal('instance'),
    Type.Literal('externalAccountName'),
  ]),
  label: Type.String(),
  hint: Type.String(),
  secret: Bool('secret', 'a secret: a password field, never shown again'),
  required: Bool('required'),
});

const PastedRecord = Record({
  kind: Type.Union([Type.Literal('token'), Type.Literal('api_key')]),
  title: Type.String(),
  fields: Type.Array(CredentialFieldRecord),
});

export const NetworkOfferRecord = Record({
  network: Type.String(),
  title: Type.String(),
  docs: Type.String({ description: 'the docs page of the network (what you need)' }),
  oauth: Nullable(
    Type.Union([Type.Literal('app'), Type.Literal('instance')], {
      description:
        "`app`: a Connect button with this instance's app; `instance`: the network's servers register Wallery at sign-in",
    }),
  ),
  oauthSettings: Nullable(
    Type.String({ description: 'an OAuth network without an app: the settings that would give it one' }),
  ),
  needsInstance: Bool('needsInstance', 'the sign-in asks for a server address first'),
  pasted: Type.Array(PastedRecord),
});
export type NetworkOfferRecord = Static<typeof NetworkOfferRecord>;
