// A connection's secrets at rest: one JSON object sealed with the secret box
// (AES-256-GCM under the instance's secret key), opened only to poll or to
// refresh a token. What a connector gets from it is a ConnectorCredential.
import { openSecret, sealSecret } from '../domain/secret-box.js';
import type { ConnectorCredential } from '../ingest/connector.js';
import type { ConnectionRow } from '../store/connections.js';

/** What a connection keeps secret. */
export interface ConnectionSecret {
  accessToken?: string;
  refreshToken?: string;
  apiKey?: string;
  apiSecret?: string;
}

export function sealConnectionSecret(secret: ConnectionSecret, key: Buffer | null): string {
  return sealSecret(JSON.stringify(secret), key);
}

/** Throws SecretBoxError (never the secret) when the key is missing or wrong. */
export function openConnectionSecret(stored: string, key: Buffer | null): ConnectionSecret {
  const parsed = JSON.parse(openSecret(stored, key, 'connection secret', 'SECRET_KEY (or its key file)')) as unknown;
  if (typeof parsed !== 'object' || parsed === null) return {};
  const out: ConnectionSecret = {};
  for (const k of ['accessToken', 'refreshToken', 'apiKey', 'apiSecret'] as const) {
    const v = (parsed as Record<string, unknown>)[k];
    if (typeof v === 'string' && v !== '') out[k] = v;
  }
  return out;
}

/** The credential a connector polls with, from a stored connection. */
export function credentialOf(row: ConnectionRow, key: Buffer | null): ConnectorCredential {
  const secret = openConnectionSecret(row.secret, key);
  return {
    connectionId: row.id,
    network: row.network,
    ...(secret.accessToken !== undefined ? { accessToken: secret.accessToken } : {}),
    ...(secret.apiKey !== undefined ? { apiKey: secret.apiKey } : {}),
    ...(secret.apiSecret !== undefined ? { apiSecret: secret.apiSecret } : {}),
    ...(row.external_account_id ? { accountId: row.external_account_id } : {}),
    ...(row.external_account_name ? { accountName: row.external_account_name } : {}),
    ...(row.instance ? { instance: row.instance } : {}),
  };
}
