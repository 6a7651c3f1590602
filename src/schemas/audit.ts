// The audit log: how it is filtered and what an entry holds.
import { Type, type Static } from 'typebox';
import { IdString, Instant, Nullable, Record, pageQuery, strict } from './fields.js';

export const AuditListQuery = Type.Object(
  {
    ...pageQuery,
    action: Type.Optional(
      Type.String({ pattern: '^[a-zA-Z_.]{1,100}$', 'x-error': 'action must be an action name such as wall.update' }),
    ),
    targetType: Type.Optional(
      Type.Enum(
        [
          'account',
          'user_key',
          'wall',
          'feed',
          'post',
          'product',
          'operator_token',
          'publishable_key',
          'webhook',
          'connection',
        ],
        {
          'x-error':
            'targetType must be account, user_key, wall, feed, post, product, operator_token, publishable_key, webhook or connection',
        },
      ),
    ),
    targetId: Type.Optional(IdString('targetId')),
    postId: Type.Optional(
      Type.String({
        ...IdString('postId'),
        description:
          'the history of one post (digits): its own changes (`post.*`) and the bulk actions on its wall that included it (`posts.bulk.*`)',
      }),
    ),
    accountId: Type.Optional(IdString('accountId')),
    tokenName: Type.Optional(
      Type.String({ minLength: 1, maxLength: 100, 'x-error': 'tokenName must be 1 to 100 characters' }),
    ),
  },
  strict,
);

export const AuditRecord = Record({
  id: Type.Integer(),
  at: Instant,
  tokenName: Type.String({ description: 'operator token name, or cli' }),
  action: Type.String(),
  targetType: Type.String(),
  targetId: Nullable(Type.Integer()),
  accountId: Nullable(
    Type.Integer({
      description:
        'the account the entry belongs to (what a token scoped to accounts is filtered on); null: none (operator tokens) or no longer known',
    }),
  ),
  summary: Type.Object(
    { before: Type.Unknown(), after: Type.Unknown() },
    {
      additionalProperties: true,
      description:
        'the changed fields before and after, plus details of the action: an open map, as what changed differs per action',
    },
  ),
});

// ---------- the types of the shapes above ----------

export type AuditRecord = Static<typeof AuditRecord>;
