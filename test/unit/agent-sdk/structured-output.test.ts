/** `--json-schema` (the SDK's outputFormat): the StructuredOutput tool, its tries, and a schema that is not one. */
import { describe, expect, it } from 'vitest';
import { runHeadless, SDK_ARGS, tempProject, writeScript, type Line } from './headless-harness.ts';

const SCHEMA = JSON.stringify({ type: 'object', properties: { n: { type: 'number' } }, required: ['n'], additionalProperties: false });
const call = (id: string, input: unknown) => ({ content: [{ type: 'tool_use' as const, id, name: 'StructuredOutput', input }] });
const toolResults = (lines: Line[]) => lines.filter((l) => l.type === 'user').flatMap((l) => l.message.content).filter((b: Line) => b.type === 'tool_result');

describe('structured output', () => {
  it('a wrong call is a tool error the model corrects; the right one ends the turn with structured_output', async () => {
    const cwd = tempProject();
    const script = writeScript(cwd, { model: [call('t1', { m: 1 }), call('t2', { n: 42 }), { content: [{ type: 'text', text: 'never asked for' }] }] });
    const run = await runHeadless([...SDK_ARGS, '--json-schema', SCHEMA, '--fake-api', script], { cwd });
    expect(run.lines.find((l) => l.subtype === 'init')?.tools).toContain('StructuredOutput');
    expect(toolResults(run.lines)).toEqual([
      { type: 'tool_result', tool_use_id: 't1', is_error: true, content: "Output does not match required schema: root: must have required property 'n', root: must NOT have additional properties" },
      { type: 'tool_result', tool_use_id: 't2', content: 'Structured output provided successfully' },
    ]);
    expect(run.lines.at(-1)).toMatchObject({ subtype: 'success', is_error: false, terminal_reason: 'completed', num_turns: 3, result: '{"n":42}', structured_output: { n: 42 } });
    expect(run.code).toBe(0);
  });

  it('five wrong calls end the turn error_max_structured_output_retries without a sixth request', async () => {
    const cwd = tempProject();
    const model = [...Array.from({ length: 5 }, (_, i) => call(`t${i}`, { m: i })), { content: [{ type: 'text' as const, text: 'never asked for' }] }];
    const run = await runHeadless([...SDK_ARGS, '--json-schema', SCHEMA, '--fake-api', writeScript(cwd, { model })], { cwd });
    expect(toolResults(run.lines).map((r) => r.is_error)).toEqual([true, true, true, true, true]);
    expect(run.lines.at(-1)).toMatchObject({
      subtype: 'error_max_structured_output_retries', is_error: true, terminal_reason: 'structured_output_retry_exhausted', num_turns: 6,
      errors: ["Failed to provide valid structured output after 5 attempts \u2014 last StructuredOutput error: Output does not match required schema: root: must have required property 'n', root: must NOT have additional properties"],
    });
    expect(run.code).toBe(1);
  });

  it('a plain answer is sent back with a reminder to call the tool, then the call ends the turn', async () => {
    const cwd = tempProject();
    const script = writeScript(cwd, { model: [{ content: [{ type: 'text', text: 'plain' }] }, call('t1', { n: 1 })] });
    const run = await runHeadless([...SDK_ARGS, '--json-schema', SCHEMA, '--fake-api', script], { cwd });
    const users = run.lines.filter((l) => l.type === 'user');
    expect(JSON.stringify(users[0].message.content)).toContain('You MUST call the StructuredOutput tool to complete this request.');
    expect(users[0].isSynthetic).toBe(true);
    expect(run.lines.at(-1)).toMatchObject({ subtype: 'success', num_turns: 3, structured_output: { n: 1 } });
  });

  it("a schema's pattern runs on the linear engine: the model's input cannot freeze the loop", async () => {
    const cwd = tempProject();
    const schema = JSON.stringify({ type: 'object', properties: { s: { type: 'string', pattern: '^(a+)+$' } }, required: ['s'] });
    const script = writeScript(cwd, { model: [call('t1', { s: `${'a'.repeat(40)}!` }), call('t2', { s: 'aaa' })] });
    const run = await runHeadless([...SDK_ARGS, '--json-schema', schema, '--fake-api', script], { cwd });
    expect(toolResults(run.lines)[0]).toMatchObject({ is_error: true, content: 'Output does not match required schema: /s: must match pattern "^(a+)+$"' });
    expect(run.lines.at(-1)).toMatchObject({ subtype: 'success', structured_output: { s: 'aaa' } });
  });

  it('a schema that is not JSON Schema, or not JSON, is a clear error and exit 2 before any request', async () => {
    const cwd = tempProject();
    const script = writeScript(cwd, { model: [] });
    const bad = await runHeadless([...SDK_ARGS, '--json-schema', '{"type":"frobnicate","required":3}', '--fake-api', script], { cwd });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--json-schema is not a valid JSON Schema: data\/required must be array/);
    const notJson = await runHeadless([...SDK_ARGS, '--json-schema', '{type:', '--fake-api', script], { cwd });
    expect(notJson.code).toBe(2);
    expect(notJson.stderr).toMatch(/--json-schema is not JSON/);
  });
});
