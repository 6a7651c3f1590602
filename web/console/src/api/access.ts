// What the signed-in token may do, from the generated role of each operation.
import { OPERATION_ROLES, type Operation } from './access.gen';
import { roleAllows, type Role } from './roles';

export const can = (role: Role, operation: Operation): boolean => roleAllows(role, OPERATION_ROLES[operation]);
