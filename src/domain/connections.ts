// A connection's status, as a pure rule: what a network's refusal makes of
// it, and which statuses still poll. `active` works; `failing` (a permission
// missing, a key not valid) is tried again on the next poll — the operator
// may have fixed it upstream; `expired` and `revoked` wait for a reconnect.

/** Why a network refused a connection's credentials. */
export type CredentialProblem = 'expired' | 'revoked' | 'permission' | 'invalid';

export const CONNECTION_STATUSES = ['active', 'failing', 'expired', 'revoked'] as const;
export type ConnectionStatus = (typeof CONNECTION_STATUSES)[number];
export type ConnectionFailedStatus = Exclude<ConnectionStatus, 'active'>;

export function connectionStatusOf(problem: CredentialProblem): ConnectionFailedStatus {
  return problem === 'expired' ? 'expired' : problem === 'revoked' ? 'revoked' : 'failing';
}

/** Whether feeds may poll with a connection in this status. */
export const isUsable = (status: string): boolean => status === 'active' || status === 'failing';
