/**
 * Secrets in the workspace, in the model's replies and in tool inputs never reach a session log, a viewer page,
 * `--json` output or an error message; masking keeps every token estimate, so a redacted log replays its own run.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Message } from '../../src/messages/types.ts';
import { estimateTokens } from '../../src/rules/tokens.ts';
import { createRedactor, REDACTED } from '../../src/replay/redact.ts';
import { runCli } from '../unit/cli/capture-io.ts';
import { expectInvariants, expectNoSecret, makeSandbox, PEM, runHostile, SECRET_FILE, SECRETS, snapshotOutside, type Sandbox } from './harness.ts';

let sandbox: Sandbox;
let before: Record<string, string>;
beforeEach(() => {
  sandbox = makeSandbox({ '.env': SECRET_FILE, 'src/config.ts': `export const key = '${SECRETS.github}';\n` });
  before = snapshotOutside(sandbox);
});
afterEach(() => sandbox.cleanup());

const call = (id: string, name: string, input: Record<string, unknown>) => ({ content: [{ type: 'tool_use' as const, id, name, input }], stop_reason: 'tool_use' });

describe('secrets', () => {
  it('never reach the session log, the viewer page, replay --json or simulate --json', async () => {
    const run = await runHostile({
      sandbox,
      prompt: `Use my key ${SECRETS.anthropic} and ${SECRETS.aws}`,
      model: [
        call('t1', 'Read', { file_path: '.env' }),
        call('t2', 'Grep', { pattern: 'KEY|TOKEN|ghp_' }),
        call('t3', 'Edit', { file_path: 'src/config.ts', old_string: SECRETS.github, new_string: SECRETS.slack }),
        { content: [{ type: 'text', text: `Found them: ${SECRET_FILE}` }], stop_reason: 'end_turn' },
      ],
    });
    expectInvariants(run, sandbox, before, { maxModelCalls: 4 });
    expect(run.terminal.reason).toBe('completed');
    // The model did see the real file (redaction is for what leaves the process, not for the model's input).
    expect(JSON.stringify(run.requests[1])).toContain(SECRETS.aws);
    expect(run.logText).toContain(REDACTED);

    const page = join(sandbox.dir, 'view.html');
    const viz = await runCli(['viz', run.logPath, '--out', page], { cwd: sandbox.dir });
    expect(viz.code).toBe(0);
    expectNoSecret(readFileSync(page, 'utf8'), 'viewer page');
    const replayed = await runCli(['replay', run.logPath, '--json'], { cwd: sandbox.dir });
    expect(replayed.code).toBe(0);
    const at = await runCli(['replay', run.logPath, '--at', '8', '--json'], { cwd: sandbox.dir });
    expect(at.code).toBe(0);
    expectNoSecret(replayed.stdout + replayed.stderr + at.stdout + at.stderr, 'replay output');
  });

  it('simulate --json and error messages mask secrets, including values of secret-named environment variables', async () => {
    const scenario = join(sandbox.dir, 'leaky.json');
    writeFileSync(scenario, JSON.stringify({ name: 'leak', params: { prompt: `token ${SECRETS.gitlab} ${SECRETS.envValue}` }, model: [{ content: [{ type: 'text', text: `${PEM}\n${SECRETS.jwt}` }] }] }));
    const result = await runCli(['simulate', scenario, '--json'], { cwd: sandbox.dir, env: { MY_DB_PASSWORD: SECRETS.envValue } });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(REDACTED);
    expectNoSecret(result.stdout + result.stderr, 'simulate --json');
    // An error message quoting a secret (a mistyped flag value here) is masked too.
    const bad = await runCli(['replay', scenario, '--config', `{"model": 1, "x": "${SECRETS.google}"}`], { cwd: sandbox.dir });
    expect(bad.code).toBe(2);
    expectNoSecret(bad.stderr, 'error message');
  });

  it('masking keeps every token estimate, so decisions taken on estimates replay the same', () => {
    const redact = createRedactor({ secretValues: [SECRETS.envValue] });
    const secretText = fc.constantFrom(...Object.values(SECRETS), PEM, SECRET_FILE, `Authorization: Bearer ${SECRETS.jwt}`);
    const text = fc.tuple(fc.string(), secretText, fc.string({ unit: 'grapheme' })).map(([a, s, b]) => `${a} ${s}\n${b}`);
    fc.assert(
      fc.property(text, text, (userText, toolText) => {
        const messages: Message[] = [
          { type: 'user', uuid: 'u', message: { role: 'user', content: userText } },
          { type: 'assistant', uuid: 'a', message: { id: 'm', role: 'assistant', model: 'x', content: [{ type: 'tool_use', id: 't', name: 'Edit', input: { new_string: toolText, nested: [toolText] } }], stop_reason: null } },
          { type: 'user', uuid: 'r', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't', content: toolText }] } },
        ] as Message[];
        const masked = redact(messages);
        expect(JSON.stringify(masked)).not.toContain(SECRETS.aws);
        expect(estimateTokens(masked)).toBe(estimateTokens(messages));
        expect(redact(masked)).toEqual(masked);
      }),
      { numRuns: 200 },
    );
  });
});
