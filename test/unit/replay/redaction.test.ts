import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createRedactor, REDACTED, secretValuesFromEnv } from '../../../src/replay/redact.ts';
import { replay } from '../../../src/replay/replay.ts';
import { recordRun } from './fixtures.ts';

const KEY = 'sk-ant-api03-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789';

describe('secrets never land in a session log', () => {
  it('redacts API keys, authorization/x-api-key values and configured patterns in header and events', async () => {
    const run = await recordRun({
      prompt: `my key is ${KEY}, please use it`,
      config: { sessionId: 'secret-session' },
      model: [
        {
          content: [
            { type: 'text', text: `curl -H "x-api-key: ${KEY}" -H "Authorization: Bearer tok_live_123456789"` },
            { type: 'tool_use', id: 'toolu_1', name: 'Bash', input: { headers: { authorization: 'Bearer abcdefghijkl', 'X-Api-Key': 'plain-key-value' }, note: 'internal-id-4242' } },
          ],
          stop_reason: 'tool_use',
        },
        { content: [{ type: 'text', text: 'done' }], stop_reason: 'end_turn' },
      ],
      tools: [{ name: 'Bash', results: [{ content: `env: ANTHROPIC_API_KEY=${KEY}\ninternal-id-9999` }] }],
      redact: { patterns: [/internal-id-\d+/] },
    });
    const text = readFileSync(run.path, 'utf8');
    expect(text).not.toContain('sk-ant-api03');
    expect(text).not.toContain('tok_live_123456789');
    expect(text).not.toContain('abcdefghijkl');
    expect(text).not.toContain('plain-key-value');
    expect(text).not.toMatch(/internal-id-\d/);
    expect(text).toContain(REDACTED);
    // The header (redacted params, extra patterns) is exactly the JSON of its members in their order.
    const header = text.slice(0, text.indexOf('\n'));
    const parsedHeader = JSON.parse(header);
    expect(Object.keys(parsedHeader)).toEqual(['kind', 'format', 'version', 'engineVersion', 'machineHash', 'createdAt', 'config', 'params', 'redactPatterns', 'at', 'initialHash']);
    expect(header).toBe(JSON.stringify(parsedHeader));
    expect(JSON.stringify(parsedHeader.params)).toContain(REDACTED);
    // The redacted log still replays with every hash verified, to the same terminal.
    expect(replay(run.path).terminal).toEqual(run.terminal);
  });

  it('serialises a value to the JSON of its redacted copy, with or without secrets and extra patterns', () => {
    const values = [{ a: 'plain', n: 1 }, { a: [`key ${KEY}`], headers: { Authorization: 'Bearer abcdefghijkl' } }, { note: 'internal-id-42' }];
    for (const redact of [createRedactor(), createRedactor({ patterns: [/internal-id-\d+/] })]) {
      for (const value of values) expect(redact.toJson(value)).toBe(JSON.stringify(redact(value)));
    }
    expect(createRedactor().isCleanJson(JSON.stringify(values[0]))).toBe(true);
    expect(createRedactor().isCleanJson(JSON.stringify(values[1]))).toBe(false);
    expect(createRedactor({ patterns: ['x'] }).isCleanJson('{}')).toBe(false);
  });

  it('redacts every string, however deep, and leaves other data alone', () => {
    const redact = createRedactor();
    const value = { a: [{ b: { c: `x ${KEY} y` } }], n: 7, ok: true, nil: null, headers: { 'x-api-key': 'k', Accept: 'json' } };
    // Masks keep the length: `[REDACTED]` then `*` for the rest (all `*` when shorter than the marker).
    const mask = `${REDACTED}${'*'.repeat(KEY.length - REDACTED.length)}`;
    expect(redact(value)).toEqual({ a: [{ b: { c: `x ${mask} y` } }], n: 7, ok: true, nil: null, headers: { 'x-api-key': '*', Accept: 'json' } });
    expect(value.a[0].b.c).toContain(KEY);
  });
});

describe('secretValuesFromEnv', () => {
  it('takes the values of secret-named variables (8 characters or more), in order, read afresh on every call', () => {
    const env: Record<string, string | undefined> = { PATH: '/usr/bin:/bin', MY_API_KEY: 'value-one-1', github_token: 'value-two-2', SHORT_SECRET: 'short', HOME: '/root' };
    expect(secretValuesFromEnv(env)).toEqual(['value-one-1', 'value-two-2']);
    // The same object changed: a new secret, a changed value, a removed one, a name already seen now long enough.
    env.DB_PASSWORD = 'value-three-3';
    env.MY_API_KEY = 'value-one-changed';
    delete env.github_token;
    env.SHORT_SECRET = 'long-enough-now';
    expect(secretValuesFromEnv(env)).toEqual(['value-one-changed', 'long-enough-now', 'value-three-3']);
    expect(secretValuesFromEnv({ PATH: 'not-secret-at-all' })).toEqual([]);
  });
});
