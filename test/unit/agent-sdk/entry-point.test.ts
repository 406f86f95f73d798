/** `turnloop/agent-sdk`: the options an SDK program spreads into `query()` to run on turnloop. */
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { agentSdkOptions, turnloopExecutablePath } from '../../../src/agent-sdk/index.ts';
import { isHeadlessInvocation } from '../../../src/agent-sdk/headless-args.ts';

describe('agentSdkOptions', () => {
  it("names the package's bin, run by node (the SDK spawns `node <bin> <args>` for a .mjs path)", () => {
    const options = agentSdkOptions();
    expect(options.pathToClaudeCodeExecutable).toBe(turnloopExecutablePath());
    expect(options.pathToClaudeCodeExecutable.endsWith('/bin/turnloop.mjs')).toBe(true);
    expect(existsSync(options.pathToClaudeCodeExecutable)).toBe(true);
    expect(options).toMatchObject({ executable: 'node', extraArgs: {} });
  });

  it('writes a script given as data to a file and passes it as --fake-api; a path is passed as is', () => {
    const script = { model: [{ content: [{ type: 'text' as const, text: 'hi' }] }] };
    const written = agentSdkOptions({ script }).extraArgs['fake-api'];
    expect(typeof written).toBe('string');
    expect(JSON.parse(readFileSync(written as string, 'utf8'))).toEqual(script);
    const byPath = agentSdkOptions({ script: 'my/script.json' }).extraArgs;
    expect(byPath['fake-api']).toBe('my/script.json');
    expect(byPath['fake-api-log']).toMatch(/requests\.jsonl$/);
  });

  it('the command line the SDK builds from them selects the headless mode', () => {
    // The SDK always starts with these three flags, then the options, then extraArgs as --key value.
    expect(isHeadlessInvocation(['--output-format', 'stream-json', '--verbose', '--input-format', 'stream-json', '--fake-api', 'x.json'])).toBe(true);
  });
});
