// Errors as the contract words them (§2), and the mapping of every failure —
// ours, Fastify's, the validator's — onto one envelope. Nothing internal
// (stack, SQL, file path) ever reaches a client.

export const MESSAGES = {
  unauthorized: 'API is not available in this plan OR Wrong user key!',
  quota: 'Daily API call limit reached',
  wallNotFound: 'Wall not found',
  postNotFound: 'Post not found',
  routeNotFound: 'Not found',
  methodNotAllowed: 'Method not allowed',
  tooLarge: 'Request body too large',
  headersTooLarge: 'Request header fields too large',
  badRequest: 'Bad request',
  requestTimeout: 'Request timeout',
  badJson: 'body must be valid JSON',
  bodyNotObject: 'body must be a JSON object',
  internal: 'Internal server error',
  unavailable: 'Service unavailable',
  redisUnavailable: 'Service unavailable: the shared cache (Redis) does not answer; retry',
  shuttingDown: 'Service unavailable: this instance is shutting down; retry',
  format: 'format must be json or xml',
} as const;

export class ApiError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export const badRequest = (message: string) => new ApiError(400, message);

interface AjvError {
  instancePath: string;
  keyword: string;
  params: Record<string, unknown>;
}

interface SchemaNode {
  properties?: Record<string, SchemaNode & { 'x-error'?: string }>;
}

/**
 * The message for a schema validation failure: the failing property's
 * `x-error` annotation (the contract's wording), else a generic one naming it.
 */
export function validationMessage(
  errors: readonly AjvError[],
  context: string | undefined,
  schema: Record<string, unknown> | undefined,
): string {
  const first = errors[0];
  if (!first) return 'request is invalid';
  const missing = first.keyword === 'required' ? String(first.params.missingProperty ?? '') : '';
  const field = missing || decodePointer(first.instancePath.split('/')[1] ?? '');
  if (field === '') return context === 'body' ? MESSAGES.bodyNotObject : `${context ?? 'request'} is invalid`;
  if (missing) return `${field} is required`;
  const node = context && schema ? (schema[context] as SchemaNode | undefined) : undefined;
  return node?.properties?.[field]?.['x-error'] ?? `${field} is invalid`;
}

function decodePointer(segment: string): string {
  return segment.replace(/~1/g, '/').replace(/~0/g, '~');
}
