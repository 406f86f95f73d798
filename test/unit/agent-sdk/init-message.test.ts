/** `system/init` carries every field claude 2.1.334 sends, except those that name things turnloop does not have. */
import { expect, it } from 'vitest';
import { runHeadless, SDK_ARGS, tempProject, writeScript } from './headless-harness.ts';

/** The keys of claude 2.1.334's init (seen offline with test/agent-sdk/probe.ts). */
const CLAUDE_INIT_KEYS = [
  'type', 'subtype', 'cwd', 'session_id', 'tools', 'mcp_servers', 'model', 'permissionMode', 'slash_commands',
  'terminal_slash_commands', 'apiKeySource', 'claude_code_version', 'output_style', 'agents', 'skills', 'plugins',
  'capabilities', 'analytics_disabled', 'product_feedback_disabled', 'served_by_anthropic', 'uuid', 'sandbox_enabled',
  'memory_paths', 'original_cwd', 'additional_directories', 'messaging_socket_path', 'fast_mode_state',
  'fast_mode_disabled_reason', 'per_turn_effort_active', 'ultrathink_available', 'ultrathink_typed_raises', 'view_mode',
  'written_at',
];
/** Left out, each for a reason (docs/agent-sdk-conformance.md). */
const NOT_SENT = [
  'capabilities', // protocol extensions turnloop does not speak
  'served_by_anthropic', 'memory_paths', 'messaging_socket_path', 'fast_mode_disabled_reason', 'per_turn_effort_active',
  'ultrathink_available', 'ultrathink_typed_raises', 'view_mode', 'written_at',
];

it('init has the real fields, with values that mean the same', async () => {
  const cwd = tempProject();
  const run = await runHeadless([...SDK_ARGS, '--add-dir', '/tmp', '--fake-api', writeScript(cwd, { model: [{ content: [{ type: 'text', text: 'ok' }] }] })], { cwd });
  const init = run.lines.find((l) => l.subtype === 'init') ?? {};
  expect(Object.keys(init).sort()).toEqual(CLAUDE_INIT_KEYS.filter((k) => !NOT_SENT.includes(k)).sort());
  expect(init).toMatchObject({
    apiKeySource: 'none', cwd, original_cwd: cwd, additional_directories: ['/tmp'], agents: ['general-purpose'],
    output_style: 'default', analytics_disabled: true, sandbox_enabled: false, fast_mode_state: 'off',
  });
});
