/**
 * Literals the shell builds on every tool call, every reply item or every run hold no literal inside them
 * (docs/architecture.md, "Literals of one level"): V8 builds a literal that holds another (`{ extra: [] }`,
 * `{ message: { role, content: [block] } }`) through the runtime from its boilerplate, about 3,000 instructions in
 * the baseline tier against a few dozen for the same objects made level by level (round 18). This holds their
 * source to that, and their output to the same members in the same order.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { noPostHookOutcome, noPreHookOutcome } from '../../src/tools/tool-hooks.ts';
import { toolResultMessage } from '../../src/tools/tool-result-message.ts';

/** The text of `function <name>(…) {…}` in a source file (up to the first line that is a lone `}`). */
function functionSource(file: string, name: string): string {
  const text = readFileSync(new URL(`../../src/${file}`, import.meta.url), 'utf8');
  const start = text.search(new RegExp(`function ${name}\\b`));
  if (start < 0) throw new Error(`no function ${name} in ${file}`);
  const end = text.indexOf('\n}\n', start);
  return text.slice(text.indexOf('{', text.indexOf(')', start)) + 1, end)
    .split('\n')
    .filter((line) => !/^\s*(\/\/|\*|\/\*)/.test(line))
    .join('\n');
}

/** A member whose value is written as a literal: `name: [`, `name: {`, or a list literal holding an object literal. */
function holdsLiteral(body: string): boolean {
  return /\b\w+\s*:\s*[[{]/.test(body) || /\[\s*\{/.test(body);
}

const HOT: Array<[file: string, name: string]> = [
  ['tools/tool-result-message.ts', 'toolResultMessage'],
  ['tools/tool-hooks.ts', 'noPreHookOutcome'],
  ['tools/tool-hooks.ts', 'noPostHookOutcome'],
  ['runtime/model-call-executor.ts', 'streamEventOutput'],
  ['runtime/model-call-executor.ts', 'failureOf'],
  ['drivers/resolve-run.ts', 'initialMessages'],
];

describe('the literals of the shell\'s hot paths', () => {
  it.each(HOT)('%s: %s holds no literal inside a literal', (file, name) => {
    expect(holdsLiteral(functionSource(file, name))).toBe(false);
  });

  it('the pipeline\'s result and the run\'s executor env are made level by level', () => {
    const pipeline = readFileSync(new URL('../../src/tools/run-tool-use.ts', import.meta.url), 'utf8');
    expect(pipeline).toMatch(/const out: PipelineResult = \{ content: '', isError: false, extra, preventContinuation: false \};/);
    const core = readFileSync(new URL('../../src/drivers/run-core.ts', import.meta.url), 'utf8');
    expect(core).toMatch(/this\.env = \{[^\n]*runToken \};/);
  });

  it('the check sees a literal inside a literal where there is one', () => {
    expect(holdsLiteral("return { messages: [], input };")).toBe(true);
    expect(holdsLiteral("return { type: 'user', message: { role: 'user' } };")).toBe(true);
    expect(holdsLiteral('const blocks = [{ type: block }];')).toBe(true);
    expect(holdsLiteral('const messages = []; return { messages, input };')).toBe(false);
  });

  it('the objects have the members and order they had', () => {
    expect(JSON.stringify(toolResultMessage('u1', 'call_1', 'out', false))).toBe(
      '{"type":"user","uuid":"u1","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"call_1","content":"out"}]},"sourceToolUseId":"call_1"}',
    );
    expect(JSON.stringify(toolResultMessage('u2', 'call_2', [{ type: 'text', text: 'x' }], true))).toBe(
      '{"type":"user","uuid":"u2","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"call_2","content":[{"type":"text","text":"x"}],"is_error":true}]},"sourceToolUseId":"call_2"}',
    );
    expect(JSON.stringify(noPreHookOutcome(7))).toBe('{"messages":[],"input":7,"inputChanged":false,"preventContinuation":false,"stop":false}');
    expect(JSON.stringify(noPostHookOutcome())).toBe('{"messages":[],"preventContinuation":false}');
    const a = noPreHookOutcome(1);
    const b = noPreHookOutcome(1);
    expect(a.messages).not.toBe(b.messages);
  });
});
