/**
 * "Always allow" in the headless mode: the `permission_suggestions` a `can_use_tool` request carries and the
 * `updatedPermissions` a program answers with (rules for the session or a settings file, a mode), as claude does.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runHeadless, SDK_ARGS, type Line, writeScript, tempProject } from './headless-harness.ts';
import { parsePermissionUpdates, permissionSuggestions } from '../../../src/agent-sdk/permission-updates.ts';

const bash = (id: string, command: string) => ({ content: [{ type: 'tool_use' as const, id, name: 'Bash', input: { command } }] });
const done = { content: [{ type: 'text' as const, text: 'done' }] };

/** Answers every can_use_tool with allow and `updates(request)` as updatedPermissions; records the requests. */
function alwaysAllow(updates: (request: Line) => unknown) {
  const asked: Line[] = [];
  const onLine = (line: Line, send: (reply: Line) => void) => {
    if (line.type !== 'control_request' || line.request.subtype !== 'can_use_tool') return;
    asked.push(line.request);
    const response = { behavior: 'allow', updatedInput: line.request.input, updatedPermissions: updates(line.request) };
    send({ type: 'control_response', response: { subtype: 'success', request_id: line.request_id, response } });
  };
  return { asked, onLine };
}

const toolResults = (lines: Line[]) => lines.filter((l) => l.type === 'user').flatMap((l) => l.message.content).filter((b: Line) => b.type === 'tool_result');
const ARGS = [...SDK_ARGS, '--permission-prompt-tool', 'stdio'];

describe('suggestions', () => {
  it('a Bash call is asked with a rule for the exact command in localSettings, plus acceptEdits for a filesystem command', async () => {
    const cwd = tempProject();
    expect(await permissionSuggestions('Bash', { command: 'mkdir -p build/debug' }, cwd)).toEqual([
      { type: 'addRules', rules: [{ toolName: 'Bash', ruleContent: 'mkdir -p build/debug' }], behavior: 'allow', destination: 'localSettings' },
      { type: 'setMode', mode: 'acceptEdits', destination: 'session' },
    ]);
    expect(await permissionSuggestions('Bash', { command: 'ls /usr' }, cwd)).toEqual([{ type: 'addRules', rules: [{ toolName: 'Bash', ruleContent: 'ls /usr' }], behavior: 'allow', destination: 'localSettings' }]);
    expect(await permissionSuggestions('Write', { file_path: join(cwd, 'a.txt') }, cwd)).toEqual([{ type: 'setMode', mode: 'acceptEdits', destination: 'session' }]);
  });

  it('no rule for what it could not match again: variables, redirections, a word with a space, unparsable text', async () => {
    const cwd = tempProject();
    for (const command of ['rm -rf $DIR', 'echo hi > out.txt', "echo 'a b'", 'echo "unterminated']) {
      expect(await permissionSuggestions('Bash', { command }, cwd)).toEqual([]);
    }
  });

  it('the can_use_tool request carries them as permission_suggestions', async () => {
    const cwd = tempProject();
    const program = alwaysAllow(() => undefined);
    await runHeadless([...ARGS, '--fake-api', writeScript(cwd, { model: [bash('toolu_1', 'echo hi'), done] })], { cwd, onLine: program.onLine });
    expect(program.asked[0]).toMatchObject({ tool_name: 'Bash', permission_suggestions: [{ type: 'addRules', rules: [{ toolName: 'Bash', ruleContent: 'echo hi *' }], behavior: 'allow', destination: 'localSettings' }] });
  });
});

describe('updatedPermissions', () => {
  it('the suggested localSettings rule is applied (the same command is not asked again) and written to .claude/settings.local.json', async () => {
    const cwd = tempProject();
    const program = alwaysAllow((request) => request.permission_suggestions.filter((s: Line) => s.type === 'addRules'));
    const run = await runHeadless([...ARGS, '--fake-api', writeScript(cwd, { model: [bash('toolu_1', 'echo one'), bash('toolu_2', 'echo one'), bash('toolu_3', 'echo two'), done] })], { cwd, onLine: program.onLine });
    expect(program.asked.map((r) => r.tool_use_id)).toEqual(['toolu_1', 'toolu_3']);
    expect(toolResults(run.lines).map((r) => r.content)).toEqual(['one', 'one', 'two']);
    expect(JSON.parse(readFileSync(join(cwd, '.claude/settings.local.json'), 'utf8'))).toEqual({ permissions: { allow: ['Bash(echo one *)', 'Bash(echo two *)'] } });
  });

  it("as claude: a settings file of a source the session does not read is written, not applied (the SDK's default settingSources: [])", async () => {
    const cwd = tempProject();
    const program = alwaysAllow((request) => request.permission_suggestions.filter((s: Line) => s.type === 'addRules'));
    await runHeadless([...ARGS, '--setting-sources', '', '--fake-api', writeScript(cwd, { model: [bash('toolu_1', 'echo one'), bash('toolu_2', 'echo one'), done] })], { cwd, onLine: program.onLine });
    expect(program.asked.map((r) => r.tool_use_id)).toEqual(['toolu_1', 'toolu_2']);
    expect(JSON.parse(readFileSync(join(cwd, '.claude/settings.local.json'), 'utf8'))).toEqual({ permissions: { allow: ['Bash(echo one *)'] } });
  });

  it('a session rule goes through the Bash rule matcher: `mkdir:*` covers the next mkdir, not a command chained to it', async () => {
    const cwd = tempProject();
    const program = alwaysAllow(() => [{ type: 'addRules', rules: [{ toolName: 'Bash', ruleContent: 'mkdir:*' }], behavior: 'allow', destination: 'session' }]);
    await runHeadless([...ARGS, '--fake-api', writeScript(cwd, { model: [bash('toolu_1', 'mkdir a'), bash('toolu_2', 'mkdir b'), bash('toolu_3', 'mkdir c && touch c/x'), done] })], { cwd, onLine: program.onLine });
    expect(program.asked.map((r) => r.tool_use_id)).toEqual(['toolu_1', 'toolu_3']);
    expect(existsSync(join(cwd, '.claude'))).toBe(false);
  });

  it('a session deny rule denies the next matching call without asking; setMode changes the mode for the rest of the session', async () => {
    const cwd = tempProject();
    const program = alwaysAllow(() => [
      { type: 'addRules', rules: [{ toolName: 'Bash', ruleContent: 'rm:*' }], behavior: 'deny', destination: 'session' },
      { type: 'setMode', mode: 'acceptEdits', destination: 'session' },
    ]);
    const run = await runHeadless([...ARGS, '--fake-api', writeScript(cwd, { model: [bash('toolu_1', 'echo first'), bash('toolu_2', 'sudo rm -rf x'), bash('toolu_3', 'touch made.txt'), done] })], { cwd, onLine: program.onLine });
    expect(program.asked.map((r) => r.tool_use_id)).toEqual(['toolu_1']);
    const results = toolResults(run.lines);
    expect(results[1]).toMatchObject({ is_error: true });
    expect(existsSync(join(cwd, 'made.txt'))).toBe(true);
    // As claude: the mode change is announced once, between the call's assistant message and its tool_result.
    const messages = run.lines.filter((l) => l.type !== 'control_request' && l.type !== 'control_response');
    const status = messages.findIndex((l) => l.type === 'system' && l.subtype === 'status');
    expect(messages[status]).toMatchObject({ status: null, permissionMode: 'acceptEdits' });
    expect(messages.filter((l) => l.subtype === 'status')).toHaveLength(1);
    expect(messages[status - 1]).toMatchObject({ type: 'assistant' });
    expect(messages[status + 1]).toMatchObject({ type: 'user', message: { content: [{ tool_use_id: 'toolu_1' }] } });
    expect(run.lines.at(-1)).toMatchObject({ permission_denials: [{ tool_use_id: 'toolu_2' }] });
  });

  it('projectSettings goes to .claude/settings.json, keeping what the file held', async () => {
    const cwd = tempProject();
    mkdirSync(join(cwd, '.claude'));
    writeFileSync(join(cwd, '.claude/settings.json'), JSON.stringify({ model: 'x', permissions: { allow: ['Read'], deny: ['Bash(curl:*)'] } }));
    const program = alwaysAllow(() => [{ type: 'addRules', rules: [{ toolName: 'Bash', ruleContent: 'echo:*' }], behavior: 'allow', destination: 'projectSettings' }]);
    await runHeadless([...ARGS, '--fake-api', writeScript(cwd, { model: [bash('toolu_1', 'echo hi'), done] })], { cwd, onLine: program.onLine });
    expect(JSON.parse(readFileSync(join(cwd, '.claude/settings.json'), 'utf8'))).toEqual({ model: 'x', permissions: { allow: ['Read', 'Bash(echo:*)'], deny: ['Bash(curl:*)'] } });
  });

  it('a symlinked .claude is refused: nothing written outside, the call denied with the reason, the run ends', async () => {
    const cwd = tempProject();
    const outside = mkdtempSync(join(tmpdir(), 'turnloop-outside-'));
    symlinkSync(outside, join(cwd, '.claude'));
    const program = alwaysAllow((request) => request.permission_suggestions);
    const run = await runHeadless([...ARGS, '--fake-api', writeScript(cwd, { model: [bash('toolu_1', 'echo hi'), done] })], { cwd, onLine: program.onLine });
    expect(existsSync(join(outside, 'settings.local.json'))).toBe(false);
    expect(toolResults(run.lines)[0]).toMatchObject({ is_error: true });
    expect(toolResults(run.lines)[0].content).toMatch(/refusing .*\.claude: it is a symbolic link/);
    expect(run.lines.at(-1)).toMatchObject({ type: 'result', subtype: 'success' });
  });

  it('malformed updates are a clear error naming the field; the call is denied, nothing applied, the SDK gets its result', async () => {
    const cwd = tempProject();
    const program = alwaysAllow(() => [
      { type: 'addRules', rules: [{ toolName: 'Bash', ruleContent: 'echo:*' }], behavior: 'allow', destination: 'session' },
      { type: 'addRules', rules: [{ toolName: 'Bash' }], behavior: 'allow', destination: 'someplace' },
    ]);
    const run = await runHeadless([...ARGS, '--fake-api', writeScript(cwd, { model: [bash('toolu_1', 'echo hi'), bash('toolu_2', 'echo hi'), done] })], { cwd, onLine: program.onLine });
    expect(program.asked).toHaveLength(2);
    expect(toolResults(run.lines)[0].content).toContain("updatedPermissions: [1].destination: expected one of userSettings, projectSettings, localSettings, session, cliArg, got \"someplace\"");
    expect(run.lines.at(-1)).toMatchObject({ type: 'result', subtype: 'success', permission_denials: [{ tool_use_id: 'toolu_1' }, { tool_use_id: 'toolu_2' }] });
  });

  it('each malformed shape names what was expected', () => {
    expect(() => parsePermissionUpdates({})).toThrow(/expected an array/);
    expect(() => parsePermissionUpdates([{ type: 'grant', destination: 'session' }])).toThrow(/\[0\]\.type: expected addRules/);
    expect(() => parsePermissionUpdates([{ type: 'addRules', rules: 'Bash', behavior: 'allow', destination: 'session' }])).toThrow(/\[0\]\.rules: expected an array/);
    expect(() => parsePermissionUpdates([{ type: 'addRules', rules: [{ toolName: 'Bash(x)' }], behavior: 'allow', destination: 'session' }])).toThrow(/\[0\]\.rules\[0\]/);
    expect(() => parsePermissionUpdates([{ type: 'addRules', rules: [], behavior: 'always', destination: 'session' }])).toThrow(/\[0\]\.behavior/);
    expect(() => parsePermissionUpdates([{ type: 'setMode', mode: 'yolo', destination: 'session' }])).toThrow(/\[0\]\.mode: expected a permission mode/);
  });
});
