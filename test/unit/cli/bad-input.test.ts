/**
 * Bad input to the CLI: every malformed scenario file gets one clear message naming the file, the path inside
 * it and what was expected; exit code 2; no stack trace unless --debug.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from './capture-io.ts';

const dir = mkdtempSync(join(tmpdir(), 'turnloop-bad-'));
const valid = { name: 'x', params: { prompt: 'hi' }, model: [] as unknown[] };

function file(name: string, content: unknown): string {
  const path = join(dir, name);
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content, null, 2));
  return path;
}

async function expectBadInput(path: string, message: string) {
  const result = await runCli(['simulate', path], { cwd: dir });
  expect(result.code).toBe(2);
  expect(result.stdout).toBe('');
  expect(result.stderr).toBe(`turnloop simulate: ${message}\n`);
}

describe('bad scenario files', () => {
  it('not JSON: names the line and column', async () => {
    await expectBadInput(file('not-json.json', '{\n  "name": "x",\n}\n'), 'not-json.json: not valid JSON (line 3, column 1): Expected double-quoted property name');
  });

  it('a missing file', async () => {
    await expectBadInput(join(dir, 'nowhere.json'), 'nowhere.json: no such file');
  });

  it('a wrong type names the path and both types', async () => {
    await expectBadInput(file('type.json', { ...valid, params: { prompt: 'hi', maxTurns: '3' } }), 'type.json: params.maxTurns: expected a number, got string "3"');
  });

  it('an unknown config key lists the keys of its group', async () => {
    const path = file('config-key.json', { ...valid, config: { features: { autoCompat: false } } });
    const result = await runCli(['simulate', path], { cwd: dir });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^turnloop simulate: config-key\.json: config\.features\.autoCompat: unknown key; expected one of: autoCompact, reactiveCompact, /);
  });

  it('an unknown top-level config key', async () => {
    const path = file('config-top.json', { ...valid, config: { maxTurns: 3 } });
    const result = await runCli(['simulate', path], { cwd: dir });
    expect(result.stderr).toMatch(/config\.maxTurns: unknown key; expected one of: sessionId, model, models, /);
  });

  it('an unknown key at the top of the file', async () => {
    await expectBadInput(
      file('top-key.json', { ...valid, modle: [] }),
      'top-key.json: modle: unknown key; expected one of: $schema, name, description, source, config, params, model, compactionModel, tools, agents, stopHooks, compaction, abort, expect',
    );
  });

  it('a missing required key', async () => {
    await expectBadInput(file('no-params.json', { model: [] }), 'no-params.json: params: missing; expected an object');
  });

  it('an unknown block type in a message param', async () => {
    await expectBadInput(
      file('block.json', { ...valid, params: { messages: [{ role: 'user', content: [{ type: 'txt', text: 'a' }] }] } }),
      'block.json: params.messages[0].content[0].type: expected one of "text", "image", "document", "tool_use", "tool_result", "thinking", "redacted_thinking", got string "txt"',
    );
  });

  it('a block that does not belong to the role', async () => {
    await expectBadInput(
      file('role.json', { ...valid, params: { messages: [{ role: 'user', content: [{ type: 'tool_use', id: 't', name: 'Read', input: {} }] }] } }),
      'role.json: params.messages[0].content[0].type: a user message cannot hold a tool_use block; expected one of text, image, document, tool_result',
    );
  });

  it('a malformed fake-API answer names its place in the model list', async () => {
    await expectBadInput(
      file('answer.json', { ...valid, model: [{ content: [{ type: 'txt', text: 'a' }] }] }),
      'answer.json: model[0].content[0].type: expected "type" to be one of text, thinking, redacted_thinking, tool_use',
    );
  });

  it('an unknown enum value in expect', async () => {
    const result = await runCli(['simulate', file('enum.json', { ...valid, expect: { terminal: 'done' } })], { cwd: dir });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('enum.json: expect.terminal: expected one of "blocking_limit", "image_error"');
    expect(result.stderr).toContain('got string "done"');
  });

  it('a wrong tool result type', async () => {
    await expectBadInput(
      file('tool.json', { ...valid, tools: [{ name: 'A', results: [{ content: 5 }] }] }),
      'tool.json: tools[0].results[0].content: expected a string or an array, got number 5',
    );
  });

  it('shows the stack trace only with --debug', async () => {
    const path = file('debug.json', { ...valid, params: { prompt: 'hi', maxTurns: 0 } });
    const plain = await runCli(['simulate', path], { cwd: dir });
    expect(plain.stderr).toBe('turnloop simulate: debug.json: params.maxTurns: expected a number > 0, got number 0\n');
    const debug = await runCli(['simulate', path, '--debug'], { cwd: dir });
    expect(debug.code).toBe(2);
    expect(debug.stderr).toContain('ScenarioFileError');
    expect(debug.stderr).toMatch(/\n\s+at /);
  });
});

describe('bad arguments', () => {
  it('an unknown option exits 2 and points at --help', async () => {
    const result = await runCli(['simulate', 'x.json', '--bogus']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("Unknown option '--bogus'");
    expect(result.stderr).toContain('turnloop simulate --help');
  });

  it('simulate without a file exits 2', async () => {
    const result = await runCli(['simulate']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('expected exactly one scenario file');
  });

  it('run with a bad --max-turns exits 2', async () => {
    const result = await runCli(['run', 'hi', '--max-turns', 'lots'], { env: { ANTHROPIC_API_KEY: 'k' } });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("--max-turns expects a positive integer, got 'lots'");
  });
});
