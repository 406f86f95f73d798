/**
 * First contact with the headless mode and the examples, as a user meets them: `turnloop --help` names `-p`,
 * `-p --help` prints the headless help (every flag it names is one the parser implements), `-p … --example NAME`
 * runs a shipped fake-API script offline, the missing-key message reads as written, and a path into a clone's
 * examples/ that is missing where the user stands says where the example is and which flag names it.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseHeadlessArgs } from '../../../src/agent-sdk/headless-args.ts';
import { EXAMPLES_DIR } from '../../../src/cli/examples.ts';
import { HEADLESS_HELP } from '../../../src/cli/headless-help.ts';
import { packageVersion } from '../../../src/cli/version.ts';
import { runCli } from './capture-io.ts';

/** An empty project: nothing of the clone's examples/ is here. */
const project = mkdtempSync(join(tmpdir(), 'turnloop-first-contact-'));
afterAll(() => rmSync(project, { recursive: true, force: true }));

describe('the headless mode is findable', () => {
  it('turnloop --help names -p and where its options are', async () => {
    const { code, stdout } = await runCli(['--help']);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^ {7}turnloop -p "<prompt>"/m);
    expect(stdout).toContain('turnloop -p --help');
  });

  it.each([['-p', '--help'], ['-p', '-h'], ['--print', '--help'], ['--output-format', 'json', '--help']])('turnloop %s %s prints the headless help, exit 0', async (...argv) => {
    const { code, stdout, stderr } = await runCli(argv);
    expect(code).toBe(0);
    expect(stdout).toBe(HEADLESS_HELP);
    expect(stderr).toBe('');
  });

  it('a short option claude does not have is refused with exit 2, not sent as the prompt; -v prints the version', async () => {
    const refused = await runCli(['-p', '-x', 'hi']);
    expect(refused.code).toBe(2);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toMatch(/^turnloop: unknown option '-x' \(the short options are -p -h -v -c -d -r -n -w/);
    const version = await runCli(['-p', '-v']);
    expect(version).toMatchObject({ code: 0, stdout: `${packageVersion()}\n`, stderr: '' });
  });

  it('every flag the headless help names is implemented (none lands among the ignored ones)', () => {
    const flags = [...new Set(HEADLESS_HELP.match(/--[a-zA-Z][a-zA-Z-]*/g) ?? [])].filter((flag) => flag !== '--example' && flag !== '--help');
    expect(flags.length).toBeGreaterThan(15);
    for (const flag of flags) {
      const value = ({ '--output-format': 'json', '--input-format': 'text', '--max-turns': '1', '--max-budget-usd': '1' } as Record<string, string>)[flag] ?? 'x';
      const parsed = parseHeadlessArgs(['-p', 'hi', `${flag}=${value}`]);
      expect(parsed.ignored, flag).toEqual([]);
    }
  });
});

/** The prompt of the first request a `-p` run sent (its `--fake-api-log`, one request per line). */
function sentPrompt(log: string): string {
  const first = JSON.parse(readFileSync(log, 'utf8').split('\n')[0]) as { body: { messages: Array<{ content: string | Array<{ text?: string }> }> } };
  const content = first.body.messages[0].content;
  return typeof content === 'string' ? content : content.at(-1)!.text!;
}

describe('-h is help only as an option, as claude reads it (probed with claude 2.1.334)', () => {
  it.each([
    [['-p', '--', '-h'], '-h', ''],
    [['-p', '--', '--help', 'extra'], '--help', 'extra'],
    [['-p', 'hi', '--', '-h'], 'hi', '-h'],
    [['-p', '--system-prompt', '-h', 'hi'], 'hi', ''],
  ])('turnloop %j sends the prompt %j', async (argv, prompt, extra) => {
    const log = join(project, `requests-${Math.random().toString(36).slice(2)}.jsonl`);
    const offline = ['--example', 'hello', '--fake-api-log', log, '--no-session-persistence'];
    const { code, stdout, stderr } = await runCli([argv[0], ...offline, ...argv.slice(1)], { cwd: project });
    expect(stdout).not.toContain('Usage:');
    expect(code, stderr).toBe(0);
    // claude drops the later positionals silently; turnloop names them once on stderr.
    expect(stderr).toBe(extra ? `turnloop: ignoring options turnloop does not implement: the extra argument '${extra}'\n` : '');
    expect(sentPrompt(log)).toBe(prompt);
  });

  it('a prompt of -h on stdin is a prompt', async () => {
    const log = join(project, 'requests-stdin.jsonl');
    const { Readable } = await import('node:stream');
    const captured = (await import('./capture-io.ts')).captureIo({ cwd: project });
    const { main } = await import('../../../src/cli/main.ts');
    const code = await main(['-p', '--example', 'hello', '--fake-api-log', log, '--no-session-persistence'], { ...captured.io, stdin: Readable.from(['-h']) });
    expect(code, captured.stderr()).toBe(0);
    expect(sentPrompt(log)).toBe('-h');
  });

  it('-h after the prompt, or before a bad value, is still the help or the error', async () => {
    expect((await runCli(['-p', 'hi', '-h'])).stdout).toBe(HEADLESS_HELP);
    const bad = await runCli(['-p', '--max-turns', 'x', '-h']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("--max-turns expects a positive integer, got 'x'");
  });
});

describe('-p runs offline from anywhere', () => {
  it('--example NAME runs a shipped fake-API script', async () => {
    const { code, stdout, stderr } = await runCli(['-p', 'Say hello', '--example', 'hello', '--no-session-persistence'], { cwd: project });
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout).toMatch(/^Hello!/);
  });

  it('--example=NAME, the inline form, names the script too; a bare --example is bad input', async () => {
    const inline = await runCli(['-p', 'Say hello', '--example=hello', '--no-session-persistence'], { cwd: project });
    expect(inline.stderr).toBe('');
    expect(inline.stdout).toMatch(/^Hello!/);
    const bare = await runCli(['-p', 'hi', '--example'], { cwd: project });
    expect(bare.code).toBe(2);
    expect(bare.stderr).toContain('--example expects a value');
  });

  it('an unknown --example is bad input that suggests the known ones', async () => {
    const { code, stderr } = await runCli(['-p', 'hi', '--example', 'helo'], { cwd: project });
    expect(code).toBe(2);
    expect(stderr).toContain("no fake-API script named 'helo'");
    expect(stderr).toContain("'hello'");
  });

  it('without a key: the message reads as written (the redactor masks no word of it)', async () => {
    const { code, stderr } = await runCli(['-p', 'hi'], { cwd: project });
    expect(code).toBe(2);
    expect(stderr).toContain('no ANTHROPIC_API_KEY: set it, or pass --fake-api');
    expect(stderr).not.toContain('*');
  });
});

describe("a clone's examples/ path, missing where the user stands", () => {
  it('-p --fake-api examples/agent-sdk/hello.json says --example hello and where the file is', async () => {
    const { code, stderr } = await runCli(['-p', 'hi', '--fake-api', 'examples/agent-sdk/hello.json'], { cwd: project });
    expect(code).toBe(2);
    expect(stderr).toContain('examples/agent-sdk/hello.json: no such file');
    expect(stderr).toContain('--example hello');
    expect(stderr).toContain(join(EXAMPLES_DIR, 'agent-sdk', 'hello.json'));
  });

  it.each([
    [['simulate', 'examples/scenarios/completed.json'], 'turnloop simulate --example completed'],
    [['check-claude', 'examples/transcripts/short.jsonl'], 'turnloop check-claude --example short'],
    [['bounds', 'examples/scenarios/completed.json'], 'turnloop simulate --example completed'],
  ])('turnloop %s suggests %s', async (argv, suggestion) => {
    const { code, stderr } = await runCli(argv, { cwd: project });
    expect(code).toBe(2);
    expect(stderr).toContain('no such file');
    expect(stderr).toContain(suggestion);
  });

  it('a path of an example that does not ship points to turnloop examples', async () => {
    const { code, stderr } = await runCli(['simulate', 'examples/scenarios/nope.json'], { cwd: project });
    expect(code).toBe(2);
    expect(stderr).toContain('turnloop examples');
  });

  it('turnloop examples --json lists the fake-API scripts', async () => {
    const { code, stdout } = await runCli(['examples', '--json']);
    expect(code).toBe(0);
    expect((JSON.parse(stdout) as { fakeApiScripts: Record<string, string> }).fakeApiScripts.hello).toBe(join(EXAMPLES_DIR, 'agent-sdk', 'hello.json'));
  });
});
