// Operator roles and account scopes: what a management token may do, and on
// which accounts. Pure rules; the management API (src/http/manage/access.ts)
// and the CLI apply them.

/** The roles, from the least to the most able; each can do all that the ones before it can. */
export const ROLES = ['viewer', 'moderator', 'editor', 'admin'] as const;
export type Role = (typeof ROLES)[number];

export const isRole = (value: unknown): value is Role => typeof value === 'string' && ROLES.includes(value as Role);

/** What each role is for (docs, OpenAPI, CLI help). */
export const ROLE_SUMMARY: Record<Role, string> = {
  viewer: 'reads everything in its scope, changes nothing',
  moderator: 'what a viewer does, plus post decisions (hide, pin, bulk actions, post edits) and moderation rules',
  editor: 'what a moderator does, plus walls, feeds, products, product tags, user keys and publishable keys',
  admin: 'everything; account creation, changes and deletion and operator tokens need an admin without a scope',
};

/** True when `role` may do what `needed` may. */
export const roleAllows = (role: Role, needed: Role) => ROLES.indexOf(role) >= ROLES.indexOf(needed);

/**
 * The accounts a token is limited to: a list of account ids, or null for
 * every account (no scope).
 */
export type AccountScope = readonly number[] | null;

export const inScope = (scope: AccountScope, accountId: number) => scope === null || scope.includes(accountId);

/** The scope as stored (JSON list, or null). */
export const scopeToText = (scope: AccountScope): string | null =>
  scope === null ? null : JSON.stringify([...new Set(scope)].sort((a, b) => a - b));

/** The stored scope; anything unreadable is the empty scope (no account), never every account. */
export function scopeFromText(text: string | null): AccountScope {
  if (text === null) return null;
  try {
    const list = JSON.parse(text) as unknown;
    return Array.isArray(list) ? list.filter((id): id is number => Number.isSafeInteger(id) && id > 0) : [];
  } catch {
    return [];
  }
}

/** The ids of a scope for an SQL `in (…)`: never empty (an empty scope matches no account). */
export const scopeIds = (scope: readonly number[]): number[] => (scope.length > 0 ? [...scope] : [-1]);

/** What a store list is limited to for an operator: the scope's ids, or null (every account) without a scope. */
export const scopeFilter = (scope: AccountScope | undefined): number[] | null => (scope ? scopeIds(scope) : null);
