// Operator roles, ordered: each may do what the ones before it may.
import type { Role } from '../../../../src/domain/roles.js';

export type { Role };
export const ROLES: readonly Role[] = ['viewer', 'moderator', 'editor', 'admin'];

/** Whether `role` is `least` or above. */
export const roleAllows = (role: Role, least: Role): boolean => ROLES.indexOf(role) >= ROLES.indexOf(least);
