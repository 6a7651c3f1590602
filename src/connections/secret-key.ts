// The key connections' secrets are sealed with. Connections hold the
// operator's tokens for the big networks, so they are never stored in plain
// text, whatever the operator configured:
// - SECRET_KEY (or its older name WEBHOOK_SECRET_KEY) set: that key;
// - else a key file (SECRET_KEY_FILE; default `secret.key` beside the SQLite
//   file): 32 random bytes made once (mode 0600, never replaced), read by every
//   process of the instance — serve, the worker, the CLI;
// - else (PostgreSQL without either): none, and storing a connection is
//   refused with a message naming SECRET_KEY.
import { randomBytes } from 'node:crypto';
import { closeSync, fchmodSync, mkdirSync, openSync, readFileSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { ConfigError, type ConnectionConfig } from '../config.js';

const KEY_MODE = 0o600;

/** Why no connection can be stored when there is no key (the management API's 409, the CLI's error). */
export const NO_SECRET_KEY =
  'connections cannot be stored: there is no secret key to encrypt them with. Set SECRET_KEY ' +
  '(openssl rand -base64 32; the same on every instance) — with PostgreSQL no key file is made unless SECRET_KEY_FILE names one';

/** The key in a key file's text: base64 of 32 bytes (a trailing newline allowed). */
function keyOfText(text: string, file: string): Buffer {
  const raw = text.trim();
  const key = /^[A-Za-z0-9+/_-]+={0,2}$/.test(raw) ? Buffer.from(raw, 'base64') : Buffer.alloc(0);
  if (key.length !== 32)
    throw new ConfigError(`SECRET_KEY_FILE ${file} does not hold a 32-byte key in base64 (one line, as it was made)`);
  return key;
}

/**
 * Reads the key file, making it first when it does not exist: created
 * exclusively (another process making it at the same moment wins, and its
 * key is read), mode 0600 whatever the umask.
 */
export function keyFromFile(file: string): Buffer {
  try {
    return keyOfText(readFileSync(file, 'utf8'), file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw wrapped(err, file);
  }
  mkdirSync(dirname(file), { recursive: true });
  const key = randomBytes(32);
  let fd: number;
  try {
    fd = openSync(file, 'wx', KEY_MODE);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return keyOfText(readFileSync(file, 'utf8'), file);
    throw wrapped(err, file);
  }
  try {
    fchmodSync(fd, KEY_MODE);
    writeSync(fd, `${key.toString('base64')}\n`);
  } finally {
    closeSync(fd);
  }
  return key;
}

function wrapped(err: unknown, file: string): Error {
  if (err instanceof ConfigError) return err;
  const code = (err as NodeJS.ErrnoException).code ?? 'error';
  return new ConfigError(
    `SECRET_KEY_FILE ${file} cannot be read or made (${code}): set SECRET_KEY instead, or fix the file`,
  );
}

/** The key connections are sealed with (see above); null when there is none (PostgreSQL without SECRET_KEY). */
export function connectionSecretKey(config: Pick<ConnectionConfig, 'secretKey' | 'secretKeyFile'>): Buffer | null {
  if (config.secretKey) return config.secretKey;
  if (config.secretKeyFile) return keyFromFile(config.secretKeyFile);
  return null;
}
