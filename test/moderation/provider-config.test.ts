// MODERATION_PROVIDERS: the providers an operator configures, checked at
// start with one line naming the provider and the field (never the value: it
// may hold a key); the key itself never shows in JSON, inspect or a string.
import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, parseModerationProviders } from '../../src/config.js';

describe('MODERATION_PROVIDERS', () => {
  it('reads each provider with its defaults; none when unset', () => {
    expect(loadConfig({}).moderation.providers).toEqual([]);
    const [openai, house] = parseModerationProviders(
      JSON.stringify([
        { name: 'openai', protocol: 'openai', url: 'https://api.openai.com', apiKey: 'sk-secret-1' },
        { name: 'house', protocol: 'http', url: 'http://10.0.0.5:8080/classify', model: 'house 3', timeoutMs: 800 },
      ]),
    );
    expect({ ...openai, apiKey: openai!.apiKey?.reveal() }).toEqual({
      name: 'openai',
      protocol: 'openai',
      url: 'https://api.openai.com/',
      apiKey: 'sk-secret-1',
      model: 'omni-moderation-latest',
      pictures: false,
      timeoutMs: 5000,
      failuresToOpen: 5,
      openForMs: 60_000,
      dailyBudget: 0,
    });
    expect(house).toMatchObject({ protocol: 'http', model: 'house 3', timeoutMs: 800, apiKey: null });
  });

  it('never shows the key: not in JSON, inspect, a string or an error', () => {
    const config = loadConfig({
      MODERATION_PROVIDERS:
        '[{"name":"openai","protocol":"openai","url":"https://api.openai.com","apiKey":"sk-secret-2"}]',
    });
    expect(JSON.stringify(config)).not.toContain('sk-secret-2');
    expect(inspect(config, { depth: 10 })).not.toContain('sk-secret-2');
    expect(`${config.moderation.providers[0]!.apiKey}`).toBe('[redacted]');
    const bad = () =>
      parseModerationProviders('[{"name":"openai","protocol":"openai","url":"https://x.example","apiKey":"sk-3",}]');
    expect(bad).toThrow(ConfigError);
    expect(bad).not.toThrow(/sk-3/);
  });

  it('refuses a bad list with one line naming the provider and the field', () => {
    const refused = (value: string) => {
      try {
        parseModerationProviders(value);
      } catch (err) {
        expect(err).toBeInstanceOf(ConfigError);
        return (err as Error).message;
      }
      throw new Error('accepted');
    };
    expect(refused('{}')).toMatch(/^MODERATION_PROVIDERS must be a JSON array of providers/);
    expect(refused('[{"name":"Open AI","protocol":"openai","url":"https://x.example"}]')).toBe(
      'MODERATION_PROVIDERS item 1: name must be 1 to 40 lower-case letters, digits, - or _',
    );
    expect(refused('[{"name":"a","protocol":"grpc","url":"https://x.example"}]')).toBe(
      'MODERATION_PROVIDERS provider a: protocol must be openai or http',
    );
    expect(refused('[{"name":"a","protocol":"http","url":"ftp://x.example"}]')).toBe(
      'MODERATION_PROVIDERS provider a: url must be an http:// or https:// URL',
    );
    expect(refused('[{"name":"a","protocol":"http","url":"https://x.example","timeoutMs":0}]')).toBe(
      'MODERATION_PROVIDERS provider a: timeoutMs must be an integer from 100 to 600000',
    );
    expect(
      refused(
        '[{"name":"a","protocol":"http","url":"https://x.example"},{"name":"a","protocol":"http","url":"https://y.example"}]',
      ),
    ).toBe('MODERATION_PROVIDERS provider a: the name is used twice');
    expect(refused('[{"name":"a","protocol":"http","url":"https://x.example","key":"k"}]')).toMatch(
      /^MODERATION_PROVIDERS item 1: unknown field key/,
    );
  });
});
