// The management API client: openapi-fetch over the generated `paths`
// (schema.d.ts), the operator token from sessionStorage on every call, and
// answers unwrapped from the envelope — an error envelope becomes an
// ApiError with the API's message and fieldErrors. A 401 tells the session
// (auth.tsx) that the token no longer works.
import createClient, { type Middleware } from 'openapi-fetch';
import type { paths } from './schema';

const TOKEN_KEY = 'wallery.console.token';

/** The operator token lives in sessionStorage only: gone with the tab, never in a URL. */
export const tokenStore = {
  get: (): string | null => sessionStorage.getItem(TOKEN_KEY),
  set: (token: string) => sessionStorage.setItem(TOKEN_KEY, token),
  clear: () => sessionStorage.removeItem(TOKEN_KEY),
};

export interface FieldError {
  field: string;
  message: string;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly fieldErrors: FieldError[] = [],
  ) {
    super(message);
  }
  /** the API's message for one field (`name`, `connector.url`…), if it named it */
  forField(field: string): string | undefined {
    return this.fieldErrors.find((e) => e.field === field || e.field.startsWith(`${field}.`))?.message;
  }
}

/** The error as an ApiError (with its fieldErrors), if it is one. */
export const apiErrorOf = (error: unknown): ApiError | null => (error instanceof ApiError ? error : null);

type UnauthorizedListener = (message: string) => void;
let onUnauthorized: UnauthorizedListener = () => undefined;
export const setUnauthorizedListener = (listener: UnauthorizedListener) => {
  onUnauthorized = listener;
};

const auth: Middleware = {
  onRequest({ request }) {
    const token = tokenStore.get();
    if (token) request.headers.set('Authorization', `Bearer ${token}`);
    return request;
  },
  async onResponse({ response }) {
    if (response.status === 401) {
      const body = (await response.clone().json()) as { responseMessage?: string };
      onUnauthorized(body.responseMessage ?? 'the token is not valid');
    }
    return response;
  },
};

/** /api/manage/v1 of the server that serves the console (relative: works behind a path prefix too). */
export const baseUrl = new URL('../api/manage/v1', document.baseURI).href;

export const api = createClient<paths>({ baseUrl });
api.use(auth);

/**
 * A call the generated client does not make (a CSV download): the token in
 * its header as always, never in the URL; an error envelope as an ApiError.
 */
export async function fetchManage(path: string, accept: string): Promise<Response> {
  const headers = new Headers({ Accept: accept });
  const token = tokenStore.get();
  if (token) headers.set('Authorization', `Bearer ${token}`);
  let response: Response;
  try {
    response = await fetch(`${baseUrl}${path}`, { headers });
  } catch {
    throw new ApiError(0, 'Wallery could not be reached. Check the connection and try again.');
  }
  if (response.ok) return response;
  let body: ErrorBody = {};
  try {
    body = (await response.json()) as ErrorBody;
  } catch {
    // not the JSON envelope
  }
  if (response.status === 401) onUnauthorized(body.responseMessage ?? 'the token is not valid');
  throw new ApiError(response.status, body.responseMessage ?? `request failed (${response.status})`, body.fieldErrors);
}

interface Envelope<T> {
  responseData: T;
}
interface ErrorBody {
  responseMessage?: string;
  fieldErrors?: FieldError[];
}

/** The `responseData` of a call, or an ApiError. */
export async function unwrap<T>(
  call: Promise<{ data?: Envelope<T>; error?: unknown; response: Response }>,
): Promise<T> {
  let result: Awaited<typeof call>;
  try {
    result = await call;
  } catch {
    throw new ApiError(0, 'Wallery could not be reached. Check the connection and try again.');
  }
  const { data, error, response } = result;
  if (data !== undefined && response.ok) return data.responseData;
  const body = (error ?? {}) as ErrorBody;
  throw new ApiError(response.status, body.responseMessage ?? `request failed (${response.status})`, body.fieldErrors);
}

// ---------- the records the console shows, as the API answers them ----------

type Json200<Op> = Op extends { responses: { 200: { content: { 'application/json': { responseData: infer D } } } } }
  ? D
  : never;

export type Me = Json200<paths['/tokens/current']['get']>;
export type Wall = Json200<paths['/walls/{wallId}']['get']>;
export type Feed = Json200<paths['/walls/{wallId}/feeds/{feedId}']['get']>;
export type Post = Json200<paths['/walls/{wallId}/posts/{postId}']['get']>;
export type Rules = Json200<paths['/walls/{wallId}/rules']['get']>;
export type Account = Json200<paths['/accounts/{accountId}']['get']>;
export type PollResult = Json200<paths['/walls/{wallId}/feeds/{feedId}/poll']['post']>;
export type PostQuery = NonNullable<paths['/walls/{wallId}/posts']['get']['parameters']['query']>;
export type BulkAction = NonNullable<
  paths['/walls/{wallId}/posts/bulk']['post']['requestBody']
>['content']['application/json']['action'];
export type WallCreate = NonNullable<paths['/walls']['post']['requestBody']>['content']['application/json'];
export type WallPatch = NonNullable<paths['/walls/{wallId}']['patch']['requestBody']>['content']['application/json'];
export type FeedCreate = NonNullable<
  paths['/walls/{wallId}/feeds']['post']['requestBody']
>['content']['application/json'];
export type Connector = NonNullable<FeedCreate['connector']>;
export type RulesBody = NonNullable<
  paths['/walls/{wallId}/rules']['put']['requestBody']
>['content']['application/json'];
