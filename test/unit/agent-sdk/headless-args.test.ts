/** The headless command line: both flag spellings, tool lists, ignored flags, bad values. */
import { describe, expect, it } from 'vitest';
import { isHeadlessInvocation, parseHeadlessArgs } from '../../../src/agent-sdk/headless-args.ts';

describe('headless args', () => {
  it('reads the flags the SDK writes, as --flag=value and --flag value', () => {
    const args = parseHeadlessArgs([
      '--output-format', 'stream-json', '--verbose', '--input-format', 'stream-json', '--max-turns=3', '--model', 'claude-haiku-4-5',
      '--permission-prompt-tool=stdio', '--allowedTools', 'Read,Bash(git log:*)', '--disallowedTools=Write', '--tools', 'Read,Bash',
      '--resume', 'abc', '--fork-session', '--include-partial-messages', '--max-budget-usd=0.25', '--permission-mode', 'plan',
      '--no-session-persistence', '--fake-api', 'script.json',
    ]);
    expect(args).toMatchObject({
      outputFormat: 'stream-json', inputFormat: 'stream-json', verbose: true, maxTurns: 3, model: 'claude-haiku-4-5', permissionPromptTool: 'stdio',
      allowedTools: ['Read', 'Bash(git log:*)'], disallowedTools: ['Write'], tools: ['Read', 'Bash'], resume: 'abc', forkSession: true,
      includePartialMessages: true, maxBudgetUsd: 0.25, permissionMode: 'plan', noSessionPersistence: true, fakeApi: 'script.json', ignored: [],
    });
  });

  it('collects flags it does not implement, with their values, without refusing them', () => {
    const args = parseHeadlessArgs(['--output-format', 'stream-json', '--betas', 'context-1m', '--plugin-dir=plugins', '--await-initialize', '--future-flag', 'x']);
    expect(args.ignored).toEqual(['--betas context-1m', '--plugin-dir plugins', '--await-initialize', '--future-flag x']);
  });

  it('reads the flags of the SDK options turnloop applies since round 13: --settings, --agent, --thinking-display', () => {
    const args = parseHeadlessArgs(['--settings', '{"env":{}}', '--agent', 'reviewer', '--thinking-display=summarized']);
    expect(args).toMatchObject({ settings: '{"env":{}}', agent: 'reviewer', thinkingDisplay: 'summarized', ignored: [] });
  });

  it('the shell form takes the prompt as a positional', () => {
    expect(parseHeadlessArgs(['-p', 'fix the bug', '--output-format', 'json'])).toMatchObject({ print: true, prompt: 'fix the bug', outputFormat: 'json' });
  });

  it('-h and --help are options only before --, and never a flag\'s value; the prompt is the first positional', () => {
    expect(parseHeadlessArgs(['-p', '-h'])).toMatchObject({ help: true });
    expect(parseHeadlessArgs(['-p', 'hi', '--help'])).toMatchObject({ help: true, prompt: 'hi' });
    expect(parseHeadlessArgs(['-p', '--', '-h'])).toMatchObject({ help: false, prompt: '-h', ignored: [] });
    expect(parseHeadlessArgs(['-p', '--', '--', 'x'])).toMatchObject({ help: false, prompt: '--', ignored: ["the extra argument 'x'"] });
    expect(parseHeadlessArgs(['-p', '--system-prompt', '-h', 'hi'])).toMatchObject({ help: false, systemPrompt: '-h', prompt: 'hi' });
    expect(parseHeadlessArgs(['-p', 'hello', 'world'])).toMatchObject({ prompt: 'hello', ignored: ["the extra argument 'world'"] });
  });

  it("reads claude's short options as its option parser does: groups split, a value from the group's rest or the next argument", () => {
    expect(parseHeadlessArgs(['-p', '-c', 'go on'])).toMatchObject({ print: true, continueLatest: true, prompt: 'go on', ignored: [] });
    expect(parseHeadlessArgs(['-pc', 'go on'])).toMatchObject({ print: true, continueLatest: true, prompt: 'go on' });
    expect(parseHeadlessArgs(['-p', '-r', 'abc', 'hi'])).toMatchObject({ resume: 'abc', prompt: 'hi' });
    expect(parseHeadlessArgs(['-p', '-rabc', 'hi'])).toMatchObject({ resume: 'abc', prompt: 'hi' });
    expect(parseHeadlessArgs(['-p', '-v'])).toMatchObject({ version: true });
    expect(parseHeadlessArgs(['-pv'])).toMatchObject({ print: true, version: true });
    expect(parseHeadlessArgs(['-ph'])).toMatchObject({ print: true, help: true });
    // -d takes an optional filter (the next argument unless it is an option); -n and -w are claude's, not implemented.
    expect(parseHeadlessArgs(['-p', '-d', '-c', 'hi'])).toMatchObject({ continueLatest: true, prompt: 'hi', ignored: [] });
    expect(parseHeadlessArgs(['-p', '-d', 'api', 'hi'])).toMatchObject({ prompt: 'hi', ignored: ['--debug api'] });
    expect(parseHeadlessArgs(['-p', 'hi', '-n', 'my run', '-w'])).toMatchObject({ prompt: 'hi', ignored: ['--name my run', '--worktree'] });
    expect(parseHeadlessArgs(['-p', '-'])).toMatchObject({ prompt: '-' });
  });

  it('refuses any other short option instead of taking it as the prompt (claude: unknown option)', () => {
    expect(() => parseHeadlessArgs(['-p', '-x', 'hi'])).toThrow("unknown option '-x' (the short options are -p -h -v -c -d -r -n -w; put a prompt that starts with '-' after '--')");
    expect(() => parseHeadlessArgs(['-p', '-xy', 'hi'])).toThrow("unknown option '-xy'");
    expect(() => parseHeadlessArgs(['-px', 'hi'])).toThrow("unknown option '-x'");
    expect(() => parseHeadlessArgs(['-p', '-5 degrees'])).toThrow("unknown option '-5 degrees'");
    expect(() => parseHeadlessArgs(['-p', '-n'])).toThrow('-n (--name) expects a value');
    expect(() => parseHeadlessArgs(['-p', '-r', '-c'])).toThrow('-r (--resume) expects a value');
    expect(parseHeadlessArgs(['-p', '--', '-x'])).toMatchObject({ prompt: '-x' });
  });

  it('bad values name the flag and what it expects', () => {
    expect(() => parseHeadlessArgs(['--max-turns', '0'])).toThrow("--max-turns expects a positive integer, got '0'");
    expect(() => parseHeadlessArgs(['--output-format', 'yaml'])).toThrow('--output-format expects one of text, json, stream-json');
    expect(() => parseHeadlessArgs(['--model'])).toThrow('--model expects a value');
  });

  it('is chosen by -p, --print, --output-format or --input-format first; never for a subcommand', () => {
    expect(isHeadlessInvocation(['-p', 'x'])).toBe(true);
    expect(isHeadlessInvocation(['--output-format', 'stream-json'])).toBe(true);
    expect(isHeadlessInvocation(['--input-format=stream-json'])).toBe(true);
    expect(isHeadlessInvocation(['run', '-p'])).toBe(false);
    expect(isHeadlessInvocation(['--version'])).toBe(false);
    expect(isHeadlessInvocation(['-pv'])).toBe(true);
    expect(isHeadlessInvocation(['-cp', 'go on'])).toBe(true);
    expect(isHeadlessInvocation(['-v'])).toBe(false);
  });
});
