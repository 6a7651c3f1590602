// What the console's sign-in says (web/console/src/signInText.ts), held
// against the server: the command it gives is the one `npm start` prints,
// and the keys Wallery makes are each recognised for what they are.
import { describe, expect, it } from 'vitest';
import { FIRST_TOKEN_COMMAND as PRINTED } from '../../src/cli/serve.js';
import { DEMO_KEYS } from '../../src/demo/demo-data.js';
import { generateOperatorToken } from '../../src/manage/tokens.js';
import { generateUserKey } from '../../src/store/keys.js';
import { generatePublishableKey } from '../../src/store/publishable-keys.js';
import {
  FIRST_TOKEN_COMMAND,
  MESSAGES,
  notATokenMessage,
  SIGN_IN_HINT,
  tokenOf,
} from '../../web/console/src/signInText.js';

describe('the sign-in screen’s words', () => {
  it('give the command `npm start` prints, which makes an admin token', () => {
    expect(FIRST_TOKEN_COMMAND).toBe(PRINTED);
    expect(FIRST_TOKEN_COMMAND).toContain('--role admin');
    expect(SIGN_IN_HINT).toContain(PRINTED);
    // what was pasted instead is named with the prefix a token has
    for (const message of [MESSAGES.notAToken, MESSAGES.userKey, MESSAGES.publishableKey])
      expect(message).toContain('wop_');
  });

  it('take an operator token, with spaces or "Bearer " around it, to the server', () => {
    const token = generateOperatorToken();
    expect(notATokenMessage(token)).toBeNull();
    expect(notATokenMessage(`  Bearer ${token}\n`)).toBeNull();
    expect(tokenOf(`  Bearer ${token}\n`)).toBe(token);
  });

  it('name a user key, a publishable key and anything else, without asking the server', () => {
    expect(notATokenMessage(generateUserKey())).toBe(MESSAGES.userKey);
    for (const demo of DEMO_KEYS) expect(notATokenMessage(demo.key)).toBe(MESSAGES.userKey);
    expect(notATokenMessage('http://localhost:3000/api/v2/widget/posts/101?user_key=demo-enterprise-key')).toBe(
      MESSAGES.userKey,
    );
    expect(notATokenMessage(generatePublishableKey())).toBe(MESSAGES.publishableKey);
    expect(notATokenMessage(`http://localhost:3000/walls/101?key=${generatePublishableKey()}`)).toBe(
      MESSAGES.publishableKey,
    );
    expect(notATokenMessage('hunter2')).toBe(MESSAGES.notAToken);
    expect(notATokenMessage('   ')).toBe(MESSAGES.empty);
  });
});
