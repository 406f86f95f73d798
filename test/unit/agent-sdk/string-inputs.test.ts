/** Number and boolean tool inputs sent as strings, coerced as claude 2.1.334 does (Extension `sdkStringToolInputs`). */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { coerceToolInput, coerceToolInputs } from '../../../src/agent-sdk/string-inputs.ts';
import { runHeadless, SDK_ARGS, tempProject, writeScript, type Line } from './headless-harness.ts';

const SCHEMA = {
  type: 'object',
  properties: { count: { type: 'number' }, whole: { type: 'integer' }, flag: { type: 'boolean' }, text: { type: 'string' }, either: { anyOf: [{ type: 'number' }, { type: 'string' }] }, nested: { type: 'object', properties: { n: { type: 'number' } } }, list: { type: 'array', items: { type: 'number' } } },
};

describe('string tool inputs', () => {
  it('rewrites top-level number and boolean fields given as strings, and nothing else', () => {
    expect(coerceToolInput({ count: '-1.5', whole: '2', flag: 'false', text: '7', either: '8', nested: { n: '3' }, list: ['4'] }, SCHEMA)).toEqual({ count: -1.5, whole: 2, flag: false, text: '7', either: '8', nested: { n: '3' }, list: ['4'] });
    // Not a number, not a boolean, not a whole number for an integer: left for the schema to refuse.
    expect(coerceToolInput({ count: 'abc', whole: '1.5', flag: 'yes' }, SCHEMA)).toEqual({ count: 'abc', whole: '1.5', flag: 'yes' });
    expect(coerceToolInput({ count: ' 2', flag: 'TRUE' }, SCHEMA)).toEqual({ count: ' 2', flag: 'TRUE' });
    const untouched = { count: 2 };
    expect(coerceToolInput(untouched, SCHEMA)).toBe(untouched);
  });

  it("a model input with its own __proto__ key keeps it as a field of the copy, never as the copy's prototype", () => {
    const input = JSON.parse('{"__proto__": {"polluted": true}, "offset": "2"}') as Record<string, unknown>;
    const out = coerceToolInput(input, { type: 'object', properties: { offset: { type: 'number' } } }) as Record<string, unknown>;
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect((out as { polluted?: unknown }).polluted).toBeUndefined();
    expect(Object.hasOwn(out, '__proto__')).toBe(true);
    expect(JSON.stringify(out)).toBe('{"__proto__":{"polluted":true},"offset":2}');
    expect(out.offset).toBe(2);
  });

  it('a call naming the subagent tool Task is coerced by the schema of the Agent tool offered', () => {
    const tools = [{ name: 'Agent', description: '', input_schema: { type: 'object', properties: { run_in_background: { type: 'boolean' } } } }];
    const reply = { type: 'assistant' as const, uuid: 'u', message: { id: 'm', role: 'assistant' as const, model: 'x', stop_reason: 'tool_use', content: [{ type: 'tool_use' as const, id: 't', name: 'Task', input: { prompt: 'p', run_in_background: 'false' } }] } };
    expect(coerceToolInputs(reply, tools).message.content).toEqual([{ type: 'tool_use', id: 't', name: 'Task', input: { prompt: 'p', run_in_background: false } }]);
  });

  it("a Read with a string offset and a StructuredOutput with a string number run, and the assistant message shows the numbers", async () => {
    const cwd = tempProject();
    writeFileSync(join(cwd, 'lines.txt'), 'one\ntwo\nthree\n');
    const schema = JSON.stringify({ type: 'object', properties: { population: { type: 'number' }, capital: { type: 'boolean' } }, required: ['population', 'capital'] });
    const script = {
      model: [
        { content: [{ type: 'tool_use' as const, id: 'toolu_read', name: 'Read', input: { file_path: join(cwd, 'lines.txt'), offset: '2', limit: '1' } }] },
        { content: [{ type: 'tool_use' as const, id: 'toolu_so', name: 'StructuredOutput', input: { population: '2102650', capital: 'true' } }] },
      ],
    };
    const run = await runHeadless([...SDK_ARGS, '--json-schema', schema, '--allowedTools', 'Read', '--fake-api', writeScript(cwd, script)], { cwd });
    const inputs = run.lines.filter((l) => l.type === 'assistant').flatMap((l) => l.message.content).filter((b: Line) => b.type === 'tool_use').map((b: Line) => b.input);
    expect(inputs).toEqual([{ file_path: join(cwd, 'lines.txt'), offset: 2, limit: 1 }, { population: 2102650, capital: true }]);
    const results = run.lines.filter((l) => l.type === 'user').flatMap((l) => l.message.content).filter((b: Line) => b.type === 'tool_result');
    expect(results[0].is_error).not.toBe(true);
    expect(JSON.stringify(results[0].content)).toContain('two');
    expect(JSON.stringify(results[0].content)).not.toContain('three');
    expect(run.lines.at(-1)).toMatchObject({ subtype: 'success', structured_output: { population: 2102650, capital: true } });
  });
});
