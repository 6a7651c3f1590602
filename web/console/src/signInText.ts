// What the sign-in screen says: how to make the first token (its hint, with
// the very command `npm start` prints), and why a token was not taken — not an
// operator token at all (a user key or a wall's publishable key pasted by
// mistake, each named), a token that is unknown or revoked, or a session
// that worked and then ended. No I/O: auth.tsx and SignIn.tsx use it, and
// test/web/sign-in-text.test.ts holds it against the server's prefixes.

/** The command that makes the first token, as `wallery start` prints it (src/cli/serve.ts, FIRST_TOKEN_COMMAND). */
export const FIRST_TOKEN_COMMAND = 'npx wallery tokens create --name me --role admin';

/** Operator tokens are `wop_` and 43 base64url characters (src/manage/tokens.ts). */
export const OPERATOR_TOKEN_PREFIX = 'wop_';
/** A wall's publishable key, for its embed and hosted page (src/store/publishable-keys.ts). */
const PUBLISHABLE_KEY_PREFIX = 'pk_';
/** An account's user key, for the public API (src/store/keys.ts). */
const USER_KEY_PREFIX = 'wk_';

export const SIGN_IN_HINT = `Make one on the server: ${FIRST_TOKEN_COMMAND} (it starts with ${OPERATOR_TOKEN_PREFIX}). It stays in this tab only.`;

export const MESSAGES = {
  empty: 'Enter an operator token.',
  notAToken: `This is not an operator token: operator tokens start with ${OPERATOR_TOKEN_PREFIX}.`,
  userKey: `This is a user key: it lets a website or app read walls through the public API, and cannot sign in here. Sign in with an operator token: it starts with ${OPERATOR_TOKEN_PREFIX}.`,
  publishableKey: `This is a wall’s publishable key (or its page’s address): it shows one wall on web pages, and cannot sign in here. Sign in with an operator token: it starts with ${OPERATOR_TOKEN_PREFIX}.`,
  revoked:
    'That token is not valid: it is unknown or was revoked. Ask an admin for a new one, or make one on the server.',
  sessionEnded:
    'Your session ended: the token is no longer valid (it was revoked, or the server no longer knows it). Sign in with a valid token.',
} as const;

/** What was pasted, taken as a token: spaces around it and a leading "Bearer " left out. */
export const tokenOf = (typed: string): string => typed.trim().replace(/^Bearer\s+/i, '');

/**
 * Why what was typed cannot be an operator token (one of MESSAGES), or null
 * when it looks like one (then only the server can tell whether it is valid).
 */
export function notATokenMessage(typed: string): string | null {
  const token = tokenOf(typed);
  if (token === '') return MESSAGES.empty;
  if (token.startsWith(OPERATOR_TOKEN_PREFIX)) return null;
  // a publishable key, or the address of a wall's page that carries one
  if (token.startsWith(PUBLISHABLE_KEY_PREFIX) || /[?&]key=pk_/.test(token)) return MESSAGES.publishableKey;
  // a user key, one of the demo's (`demo-enterprise-key`, printed by `npm start`), or a public API call that holds one
  if (token.startsWith(USER_KEY_PREFIX) || /^demo-[a-z]+-key$/.test(token) || /[?&]user_key=/.test(token))
    return MESSAGES.userKey;
  return MESSAGES.notAToken;
}
