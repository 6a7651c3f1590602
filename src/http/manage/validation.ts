// The management API's validation hook: path, query and body of a request
// checked together against the route's schemas (src/schemas/validate.ts).
import type { FastifyRequest } from 'fastify';
import type { TSchema } from 'typebox';
import { invalid, type FieldError } from '../../domain/errors.js';
import { fieldErrorsOf } from '../../schemas/validate.js';

/** An object schema that an empty object satisfies: no required field, no least number of fields. */
function allOptional(schema: TSchema): boolean {
  const s = schema as { type?: unknown; required?: unknown[]; minProperties?: number };
  return s.type === 'object' && (s.required ?? []).length === 0 && (s.minProperties ?? 0) === 0;
}

/**
 * preValidation hook of the management API: checks params, query and body
 * together, so that one 400 lists every bad field of the request.
 */
export async function validateRequest(request: FastifyRequest): Promise<void> {
  const schema = request.routeOptions.schema as { params?: TSchema; querystring?: TSchema; body?: TSchema } | undefined;
  if (!schema) return;
  const errors: FieldError[] = [];
  if (schema.params) errors.push(...fieldErrorsOf(schema.params, request.params ?? {}, 'params'));
  if (schema.querystring) errors.push(...fieldErrorsOf(schema.querystring, request.query ?? {}, 'query'));
  if (schema.body) {
    // no body is an empty one for an action whose body fields are all optional (rotate-secret, rules/apply)
    const body = request.body === undefined && allOptional(schema.body) ? {} : request.body;
    errors.push(...fieldErrorsOf(schema.body, body, 'body'));
  }
  if (errors.length > 0) throw invalid(errors);
}
