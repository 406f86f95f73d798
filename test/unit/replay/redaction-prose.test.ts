/**
 * The redactor masks secrets, never prose. Every line of the README and of docs/ (sentences, commands, code, with
 * their placeholders and `${TOKEN}` references) and the CLI's own messages that name a secret variable go through
 * it unchanged; the same shapes holding real values are still masked.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createRedactor } from '../../../src/replay/redact.ts';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const docs = ['README.md', ...readdirSync(`${root}docs`).filter((name) => name.endsWith('.md')).map((name) => `docs/${name}`)];
const redactor = createRedactor({});

/** Sentences the CLI prints or a user writes about keys (none holds one). */
const MESSAGES = [
  'no ANTHROPIC_API_KEY: set it, or pass --fake-api <script.json> to run offline against a scripted model',
  'ANTHROPIC_API_KEY: set it in your shell, or in .env',
  'GITHUB_TOKEN: not set',
  'the api_key: read it from the environment',
  'password: see the vault, not this file',
  'Authorization: `Bearer ${token}` is sent with each request',
  'Anthropic keys start with sk-ant-api03-… or sk-ant-admin01-...',
];

describe('the redactor leaves prose alone', () => {
  it('every line of the README and docs/ comes out unchanged', () => {
    const changed: string[] = [];
    for (const file of docs) {
      readFileSync(`${root}${file}`, 'utf8').split('\n').forEach((line, index) => {
        const out = redactor.text(line);
        if (out !== line) changed.push(`${file}:${index + 1}: ${line}\n  -> ${out}`);
      });
    }
    expect(changed).toEqual([]);
  });

  it.each(MESSAGES)('%s', (message) => {
    expect(redactor.text(message)).toBe(message);
  });

  it('still masks the same shapes when they hold values', () => {
    const secrets = [
      ['ANTHROPIC_API_KEY: sk-ant-api03-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789', 'sk-ant-api03-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789'],
      ['password: hunter2', 'hunter2'],
      ['DB_PASSWORD=changeme', 'changeme'],
      ['API_TOKEN: abcdefghijkl', 'abcdefghijkl'],
      ['API_TOKEN: "correct horse battery staple"', 'correct horse battery staple'],
      ['Authorization: Bearer abcdefghijkl0123', 'abcdefghijkl0123'],
      ['headers: { Authorization: `Bearer tok_live_123456789` }', 'tok_live_123456789'],
    ] as const;
    for (const [line, secret] of secrets) expect(redactor.text(line), line).not.toContain(secret);
  });
});
