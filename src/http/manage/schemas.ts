// The management API's own schemas: path parameters and the envelopes of
// its answers. The resources' schemas are neutral (src/schemas/).
import { Type, type TSchema } from 'typebox';
import { IdString, Record } from '../../schemas/fields.js';

// ---------- params ----------

export const AccountParams = Type.Object({ accountId: IdString('accountId') });
export const KeyParams = Type.Object({ accountId: IdString('accountId'), keyId: IdString('keyId') });
export const WallParams = Type.Object({ wallId: IdString('wallId') });
export const FeedParams = Type.Object({ wallId: IdString('wallId'), feedId: IdString('feedId') });
export const PostParams = Type.Object({ wallId: IdString('wallId'), postId: IdString('postId') });
export const TagParams = Type.Object({
  wallId: IdString('wallId'),
  postId: IdString('postId'),
  productId: IdString('productId'),
});
export const ProductParams = Type.Object({ productId: IdString('productId') });
export const WebhookParams = Type.Object({ webhookId: IdString('webhookId') });
export const ConnectionParams = Type.Object({ connectionId: IdString('connectionId') });
export const DeliveryParams = Type.Object({ webhookId: IdString('webhookId'), deliveryId: IdString('deliveryId') });

// ---------- envelopes ----------

export const FieldErrorSchema = Record({ field: Type.String(), message: Type.String() });

/** The error envelope of one status (`responseCode` = the status line); a 400 adds every bad field. */
export const ErrorEnvelope = (code: number, description: string) =>
  Record(
    {
      responseCode: Type.Literal(code),
      responseStatus: Type.Literal('error'),
      responseMessage: Type.String(),
      ...(code === 400
        ? { fieldErrors: Type.Array(FieldErrorSchema, { minItems: 1, description: 'every bad field' }) }
        : {}),
    },
    { description },
  );

const ERRORS = {
  400: ErrorEnvelope(400, 'invalid request; fieldErrors names every bad field'),
  401: ErrorEnvelope(401, 'missing, unknown or revoked operator token'),
  404: ErrorEnvelope(404, 'a resource the request names does not exist'),
  409: ErrorEnvelope(409, 'conflicts with the current state, or with a concurrent change: read again and retry'),
  410: ErrorEnvelope(410, 'the history the cursor names has been pruned: start again from a full read'),
};

export const Ok = <T extends TSchema>(data: T, description: string) =>
  Record(
    { responseCode: Type.Literal(200), responseStatus: Type.Literal('success'), responseData: data },
    { description },
  );
export const Created = <T extends TSchema>(data: T, description: string) =>
  Record(
    { responseCode: Type.Literal(201), responseStatus: Type.Literal('success'), responseData: data },
    { description },
  );
export const PageOf = <T extends TSchema>(item: T) =>
  Record({
    data: Type.Array(item),
    nextCursor: Type.Union([Type.String(), Type.Null()], {
      description: 'pass as cursor for the next page; null on the last page',
    }),
  });

/**
 * The responses of a route: its success, 400 and 401 (every route), and the
 * route's own errors — 404 when it names a record, 409 when it writes. The
 * statuses every route shares (413, 431, 500, 503…) are added in openapi.ts.
 */
export const responses = <S extends Record<number, TSchema>>(success: S, ...own: (404 | 409 | 410)[]) => ({
  ...success,
  400: ERRORS[400],
  401: ERRORS[401],
  ...Object.fromEntries(own.map((code) => [code, ERRORS[code]])),
});
