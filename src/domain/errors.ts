// The errors a request can be refused with, whoever serves it (management
// API, CLI, services): an HTTP-like status, a message, and every bad field.
// Neutral: the HTTP layer renders them, the CLI prints them.
import type { Cleaned } from './writes.js';

export interface FieldError {
  /** the field as the caller named it: `name`, `cta.url`, `tags[2].left`, `postIds[0]`, `limit` */
  field: string;
  message: string;
}

/**
 * A management operation refused: the HTTP status it maps to, a message,
 * and (400) every bad field. Thrown by the store layer, rendered by the
 * management API's error handler and by the CLI.
 */
export class ManageError extends Error {
  constructor(
    readonly status: 400 | 401 | 403 | 404 | 409 | 410,
    message: string,
    readonly fieldErrors: FieldError[] = [],
  ) {
    super(message);
    this.name = 'ManageError';
  }
}

export function invalid(fieldErrors: FieldError[]): ManageError {
  return new ManageError(400, fieldErrors.map((e) => e.message).join('; ') || 'request is invalid', fieldErrors);
}

/** The value a write stores (contract §7, src/domain/writes.ts), or a 400 naming every refused field. */
export function stored<V>(cleaned: Cleaned<V>): V {
  if (cleaned.problems.length > 0) throw invalid(cleaned.problems);
  return cleaned.value;
}

export const invalidField = (field: string, message: string) => invalid([{ field, message }]);
export const notFound = (what: string, id: number | string) => new ManageError(404, `${what} ${id} not found`);
/** The row a lookup found; a 404 naming `what` and `id` when it found none. */
export function found<T>(row: T | null | undefined, what: string, id: number | string): T {
  if (row === null || row === undefined) throw notFound(what, id);
  return row;
}
export const conflict = (message: string) => new ManageError(409, message);
export const gone = (message: string) => new ManageError(410, message);
