// connections list / add / remove: an account's credentials for networks.
// The secret is never a command-line argument (shell history, `ps`): it is
// read from WALLERY_CONNECTION_SECRET, else from stdin, and sealed at once
// with the instance's key (SECRET_KEY, else its key file).
import type { Command } from 'commander';
import { connectionSecretKey } from '../connections/secret-key.js';
import { CONNECTION_NETWORKS } from '../domain/connections.js';
import * as manage from '../manage/connections.js';
import { ConnectionCreateBody } from '../schemas/connections.js';
import type { ConnectionCreateBody as CreateBody } from '../schemas/connections.js';
import type { Config } from '../config.js';
import { CliError, idArgument } from './common.js';
import { checkBody, given, type PrintOptions } from './output.js';
import { lineCommand, pageCommand, recordCommand } from './resource.js';

const COLUMNS = ['id', 'network', 'name', 'authKind', 'status', 'statusText', 'tokenHint', 'usedBy'];

/** The environment variables a secret may come in (never an argument). */
export const SECRET_ENV = 'WALLERY_CONNECTION_SECRET';
export const API_SECRET_ENV = 'WALLERY_CONNECTION_API_SECRET';

const keyringOf = (config: Config): manage.ConnectionKeyring => ({
  secretKey: connectionSecretKey(config.connections),
});

/** The secret: WALLERY_CONNECTION_SECRET, else stdin (piped), its surrounding whitespace trimmed. */
async function readSecret(): Promise<string> {
  const fromEnv = process.env[SECRET_ENV]?.trim();
  if (fromEnv) return fromEnv;
  if (process.stdin.isTTY)
    throw new CliError(
      `give the token or key on stdin (… | wallery connections add …) or in ${SECRET_ENV}; never as an argument`,
    );
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8').trim();
  if (text === '') throw new CliError(`no token or key on stdin (or in ${SECRET_ENV})`);
  return text;
}

type AddOptions = PrintOptions & {
  account: string;
  network: string;
  name: string;
  kind: string;
  instance?: string;
  externalAccountId?: string;
  externalAccountName?: string;
  expiresAt?: string;
};

export function registerConnectionCommands(program: Command) {
  const group = program
    .command('connections')
    .description("an account's connections: its own tokens and API keys for networks, that feeds read with");
  const id = idArgument('connection');

  pageCommand(group, {
    name: 'list',
    description: "list an account's connections (never their secrets: only the last 4 characters)",
    arguments: [idArgument('account')],
    columns: COLUMNS,
    run: ({ store, page, args: [accountId], config, op }) =>
      manage.listConnections(store.db, accountId, page, keyringOf(config), op.now),
  });

  recordCommand(group, {
    name: 'add',
    description: `store a connection; the token or key is read from ${SECRET_ENV} or stdin (the API secret, if any, from ${API_SECRET_ENV})`,
    options: (c) =>
      c
        .requiredOption('--account <id>', 'account id')
        .requiredOption('--network <network>', CONNECTION_NETWORKS.join(', '))
        .requiredOption('--name <name>', 'what you call it ("Brand Instagram")')
        .option('--kind <kind>', 'token (an access token) or api_key', 'token')
        .option(
          '--instance <url>',
          'the server of a federated network (Mastodon, Pixelfed, Misskey), or a Bluesky PDS (default https://bsky.social)',
        )
        .option('--external-account-id <id>', 'the network account it signs in as')
        .option('--external-account-name <name>', 'its user name (Bluesky: the handle the app password signs in with)')
        .option('--expires-at <iso>', 'when the token expires (ISO 8601)'),
    body: (options: AddOptions) => {
      const body = given({
        network: options.network,
        name: options.name,
        authKind: options.kind,
        instance: options.instance,
        externalAccountId: options.externalAccountId,
        externalAccountName: options.externalAccountName,
        expiresAt: options.expiresAt,
      });
      // the secret fields are filled in after reading them: checked here without
      checkBody<CreateBody>(ConnectionCreateBody, body);
      if (!/^\d+$/.test(options.account)) throw new CliError('--account must be a positive integer');
      return body as CreateBody;
    },
    run: async ({ op, body, options, config }) => {
      const secret = await readSecret();
      const apiSecret = process.env[API_SECRET_ENV]?.trim() || undefined;
      const withSecret = {
        ...body,
        ...(body.authKind === 'api_key' ? { apiKey: secret } : { accessToken: secret }),
        ...(apiSecret ? { apiSecret } : {}),
      };
      checkBody<CreateBody>(ConnectionCreateBody, withSecret);
      return manage.createConnection(op, Number(options.account), withSecret, keyringOf(config));
    },
  });

  lineCommand(group, {
    name: 'remove',
    description: 'delete a connection (refused while feeds read with it)',
    arguments: [id],
    run: ({ op, args: [connectionId], config }) => manage.deleteConnection(op, connectionId, keyringOf(config)),
    done: ([connectionId]) => `connection ${connectionId} deleted`,
  });
}
