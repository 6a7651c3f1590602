// The records of the catalogue and account screens (products and hotspots,
// keys and usage, embed, analytics, audit, webhooks), as the API answers them:
// derived from the generated `paths`, so an API change that breaks a screen
// fails the typecheck.
import type { paths } from './schema';

type Json<Op, Code extends number> = Op extends {
  responses: { [K in Code]: { content: { 'application/json': { responseData: infer D } } } };
}
  ? D
  : never;
type Body<Op> = Op extends { requestBody?: { content: { 'application/json': infer B } } } ? B : never;

export type Product = Json<paths['/products/{productId}']['get'], 200>;
export type ProductCreate = Body<paths['/products']['post']>;
export type ProductPatch = Body<paths['/products/{productId}']['patch']>;
export type Tag = Json<paths['/walls/{wallId}/posts/{postId}/products']['get'], 200>[number];
export type UserKey = Json<paths['/accounts/{accountId}/keys/{keyId}']['get'], 200>;
export type NewUserKey = Json<paths['/accounts/{accountId}/keys']['post'], 201>;
export type PublishableKey = Json<paths['/walls/{wallId}/publishable-keys/{keyId}']['delete'], 200>;
export type NewPublishableKey = Json<paths['/walls/{wallId}/publishable-keys']['post'], 201>;
export type Usage = Json<paths['/accounts/{accountId}/usage']['get'], 200>;
export type AuditEntry = Json<paths['/audit']['get'], 200>['data'][number];
export type AuditQuery = NonNullable<paths['/audit']['get']['parameters']['query']>;

export type WallAnalytics = Json<paths['/walls/{wallId}/analytics']['get'], 200>;
export type AnalyticsDay = WallAnalytics['days'][number];
export type AnalyticsQuery = NonNullable<paths['/walls/{wallId}/analytics']['get']['parameters']['query']>;

export type Webhook = Json<paths['/webhooks/{webhookId}']['get'], 200>;
export type NewWebhook = Json<paths['/webhooks']['post'], 201>;
export type WebhookCreate = Body<paths['/webhooks']['post']>;
export type WebhookPatch = Body<paths['/webhooks/{webhookId}']['patch']>;
export type WebhookEvent = WebhookCreate['events'][number];
export type Delivery = Json<paths['/webhooks/{webhookId}/test']['post'], 200>;
