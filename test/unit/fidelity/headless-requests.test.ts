/**
 * What an SDK session sends to the API, checked on the requests a fake API received (issue 39): the loop fixes
 * that test/agent-sdk/request-sequence.test.ts shows against the real executable, here without it.
 */
import { existsSync, watch, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeAnthropicApi, type FakeApi, type FakeScriptInput } from '../../../src/fake-api/index.ts';
import { INTERRUPTED_DURING_TOOLS_TEXT, INTERRUPTED_TEXT } from '../../../src/messages/message-factory.ts';
import { runHeadless, SDK_ARGS, tempProject, userLine, type Line, type Program } from '../agent-sdk/headless-harness.ts';

let api: FakeApi | undefined;
afterEach(async () => {
  await api?.close();
  api = undefined;
});

async function session(script: FakeScriptInput, program: Pick<Program, 'onLine' | 'results'> & { args?: string[]; cwd?: string } = {}) {
  api = await startFakeAnthropicApi(script);
  const env = { ANTHROPIC_API_KEY: 'sk-test', ANTHROPIC_BASE_URL: api.baseURL };
  const run = await runHeadless([...SDK_ARGS, ...(program.args ?? [])], { ...program, env });
  return { run, requests: api.log.map((entry) => entry.body as { messages: Array<{ role: string; content: Line[] }> }) };
}

/** A request's messages as `role: block, block` with texts and tool_result ids and errors spelled out. */
function turns(request: { messages: Array<{ role: string; content: Line[] }> }): string[] {
  const block = (b: Line) =>
    b.type === 'text' ? JSON.stringify(b.text) : b.type === 'tool_result' ? `tool_result ${b.tool_use_id}${b.is_error ? ' error' : ''}` : b.type;
  return request.messages.map((m) => `${m.role}: ${m.content.map(block).join(', ')}`);
}

const interrupt = { type: 'control_request', request_id: 'int-1', request: { subtype: 'interrupt' } };

/**
 * A reply whose stream stalls after its first event (10 minutes between events, far past any test's timeout): only
 * the interrupt ends it, however slowly the run reacts, so the test waits on the interrupt, not on a delay.
 */
const stalledReply = { content: [{ type: 'text' as const, text: 'a long answer that never finishes streaming' }], eventDelayMs: 600_000 };

/** Resolves once `file` exists (a file-system event, not a poll or a delay). */
function appears(file: string): Promise<void> {
  return new Promise((resolve) => {
    const watcher = watch(dirname(file), () => {
      if (existsSync(file)) {
        watcher.close();
        resolve();
      }
    });
    if (existsSync(file)) {
      watcher.close();
      resolve();
    }
  });
}

describe('an SDK session sends what the original sends', () => {
  it('a failed Bash beside a Read: the Read runs and its content goes back (no sibling cancelled)', async () => {
    const cwd = tempProject();
    writeFileSync(join(cwd, 'notes.txt'), 'hello from the notes\n');
    const reply = {
      content: [
        { type: 'tool_use' as const, id: 'toolu_bash', name: 'Bash', input: { command: 'exit 3' } },
        { type: 'tool_use' as const, id: 'toolu_read', name: 'Read', input: { file_path: join(cwd, 'notes.txt') } },
      ],
    };
    const { requests } = await session({ model: [reply, { content: [{ type: 'text', text: 'done' }] }] }, { cwd, args: ['--permission-mode', 'acceptEdits', '--allowedTools', 'Bash'] });
    const results = requests[1].messages.at(-1)!.content;
    expect(results.map((b) => [b.tool_use_id, b.is_error === true])).toEqual([['toolu_bash', true], ['toolu_read', false]]);
    expect(JSON.stringify(results[1].content)).toContain('hello from the notes');
  });

  it('after an interrupt while streaming, the next request holds the interruption note before the new prompt', async () => {
    let sent = false;
    const { requests } = await session(
      { model: [stalledReply, { content: [{ type: 'text', text: 'second answer' }] }] },
      {
        results: 2,
        args: ['--include-partial-messages'],
        onLine: (line, send) => {
          if (line.type === 'stream_event' && !sent) {
            sent = true;
            send(interrupt);
          }
          if (line.type === 'result' && line.subtype === 'error_during_execution') send(userLine('Second question.'));
        },
      },
    );
    expect(requests).toHaveLength(2);
    expect(turns(requests[1])).toEqual(['user: "hello", ' + JSON.stringify(INTERRUPTED_TEXT) + ', "Second question."']);
  });

  it('after an interrupt during a tool, the next request holds its error result, the note and the new prompt in one user turn', async () => {
    const cwd = tempProject();
    let sent = false;
    // The command marks that it runs, then outlasts the test: the interrupt is sent once the mark appears.
    const call = { content: [{ type: 'tool_use' as const, id: 'toolu_sleep', name: 'Bash', input: { command: 'touch running && sleep 20' } }] };
    const { requests } = await session(
      { model: [call, { content: [{ type: 'text', text: 'second answer' }] }] },
      {
        cwd,
        results: 2,
        args: ['--permission-mode', 'acceptEdits', '--allowedTools', 'Bash'],
        onLine: (line, send) => {
          if (line.type === 'assistant' && !sent) {
            sent = true;
            void appears(join(cwd, 'running')).then(() => send(interrupt));
          }
          if (line.type === 'result' && line.subtype === 'error_during_execution') send(userLine('Second question.'));
        },
      },
    );
    expect(turns(requests[1])).toEqual([
      'user: "hello"',
      'assistant: tool_use',
      `user: tool_result toolu_sleep error, ${JSON.stringify(INTERRUPTED_DURING_TOOLS_TEXT)}, "Second question."`,
    ]);
  });

  it('an empty reply ends the turn with the stop reason the API streamed (end_turn), not null', async () => {
    const { run } = await session({ model: [{ content: [], stop_reason: 'end_turn' }] });
    expect(run.lines.at(-1)).toMatchObject({ type: 'result', subtype: 'success', is_error: false, stop_reason: 'end_turn' });
  });
});
