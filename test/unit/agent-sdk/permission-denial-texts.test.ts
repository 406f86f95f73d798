/** Denials worded as claude 2.1.334 words them (probed: test/agent-sdk/programs/parity-denials.ts). */
import { describe, expect, it } from 'vitest';
import { expandsVariable } from '../../../src/agent-sdk/shell-commands.ts';
import { runHeadless, SDK_ARGS, tempProject, writeScript, type Line } from './headless-harness.ts';

async function deniedCall(name: string, input: Record<string, unknown>, flags: string[], onLine?: (line: Line, send: (reply: Line) => void) => void) {
  const cwd = tempProject();
  const script = { model: [{ content: [{ type: 'tool_use' as const, id: 'toolu_1', name, input }] }, { content: [{ type: 'text' as const, text: 'ok' }] }] };
  const run = await runHeadless([...SDK_ARGS, ...flags, '--fake-api', writeScript(cwd, script)], { cwd, ...(onLine ? { onLine } : {}) });
  const result = run.lines.filter((l) => l.type === 'user').flatMap((l) => l.message.content).find((b: Line) => b.type === 'tool_result');
  const denied = run.lines.find((l) => l.type === 'system' && l.subtype === 'permission_denied');
  return { result, denied };
}

describe("claude's denial texts", () => {
  it('a Bash deny rule: "Permission to use Bash with command ... has been denied." and decision_reason_type subcommandResults', async () => {
    const { result, denied } = await deniedCall('Bash', { command: 'touch ruled.txt' }, ['--disallowedTools', 'Bash(touch:*)']);
    expect(result).toMatchObject({ is_error: true, content: 'Permission to use Bash with command touch ruled.txt has been denied.' });
    expect(denied).toMatchObject({ tool_name: 'Bash', decision_reason_type: 'subcommandResults', message: 'Permission to use Bash with command touch ruled.txt has been denied.' });
  });

  it("dontAsk mode: claude's text naming the tool, decision_reason_type mode", async () => {
    const { result, denied } = await deniedCall('Write', { file_path: 'd.txt', content: 'x\n' }, ['--permission-mode', 'dontAsk']);
    expect(result.content).toMatch(/^Permission to use Write has been denied because Claude Code is running in don't ask mode\. IMPORTANT: /);
    expect(denied).toMatchObject({ decision_reason_type: 'mode', message: result.content });
  });

  it('a command with a variable that needs approval, nobody to ask: "A variable in this command can\'t be checked before it runs"', async () => {
    const { result, denied } = await deniedCall('Bash', { command: 'printf "%s" "$OWNER" > owner.txt' }, ['--allowedTools', 'Bash(printf:*)']);
    expect(result).toMatchObject({ is_error: true, content: "A variable in this command can't be checked before it runs" });
    expect(denied).toMatchObject({ message: "A variable in this command can't be checked before it runs" });
    expect(denied).not.toHaveProperty('decision_reason_type');
  });

  it("the program's deny message is the whole tool_result text", async () => {
    const { result } = await deniedCall('Bash', { command: 'touch x' }, ['--permission-prompt-tool', 'stdio'], (line, send) => {
      if (line.type === 'control_request' && line.request.subtype === 'can_use_tool') {
        send({ type: 'control_response', response: { subtype: 'success', request_id: line.request_id, response: { behavior: 'deny', message: 'no shell today' } } });
      }
    });
    expect(result).toMatchObject({ is_error: true, content: 'no shell today' });
  });

  it("a call nobody can be asked about, without a variable, keeps turnloop's words (claude's come from its command classifier)", async () => {
    const { result, denied } = await deniedCall('Bash', { command: 'touch made.txt' }, []);
    expect(result).toMatchObject({ is_error: true, content: 'Permission to use Bash was denied: the call needs approval and the program gave no canUseTool' });
    expect(denied).toMatchObject({ message: result.content });
  });

  it('finds variable expansions outside single quotes only (the Bash grammar reads the quotes)', async () => {
    expect(await expandsVariable('echo $HOME')).toBe(true);
    expect(await expandsVariable('echo "${A}"')).toBe(true);
    expect(await expandsVariable('echo $(date)')).toBe(true);
    expect(await expandsVariable("echo '$HOME'")).toBe(false);
    expect(await expandsVariable('echo \\$HOME')).toBe(false);
    expect(await expandsVariable('echo 5$')).toBe(false);
    // A single quote inside double quotes opens nothing: the variable after it is expanded.
    expect(await expandsVariable(`echo "it's $HOME"`)).toBe(true);
    expect(await expandsVariable(`echo "a'b" '$HOME'`)).toBe(false);
  });
});
