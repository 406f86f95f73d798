/**
 * What the sampling, tool and start-of-run actions must do, pinned where mutation testing found the core tests
 * silent:
 * - docs/loop.md §4.5 / §10: a model fallback strips thinking blocks (and redacted thinking) from the history, and only
 *   them: every other message reaches the fallback model unchanged;
 * - docs/loop.md §4.5 (streaming tool execution): each tool_use goes to the executor with its own concurrency-safe flag;
 * - docs/loop.md §4.6: post-sampling hooks fire only when something was sampled;
 * - docs/loop.md §4.11 / §4.8: a tool-use summary starts only if enabled, tools ran, not aborted and not a subagent, and
 *   is emitted in the next iteration once it has resolved;
 * - docs/loop.md §4.2: a resumed history starts at its last compact boundary;
 * - docs/loop.md §2: user context is sent as a (meta) message before the history, system context after the system prompt;
 * - docs/loop.md §4.9.4: a stop hook that prevents continuation ends the run with its stop reason.
 */
import { describe, expect, it } from 'vitest';
import type { AssistantMessage, Message } from '../../src/messages/types.ts';
import {
  assistantBlock,
  assistantText,
  assistantThinking,
  assistantToolUse,
  compactSummary,
  drive,
  effectsOf,
  emittedOf,
  overloaded,
  params,
  reply,
  testConfig,
  userText,
} from '../helpers/index.ts';

const FALLBACK = 'claude-opus-4-1';

describe('model fallback with features.stripThinkingOnFallback strips thinking, and only thinking (docs/loop.md §4.5, §10)', () => {
  const redacted: AssistantMessage = assistantBlock({ type: 'redacted_thinking', data: 'opaque' }, 'r-redacted');
  const history: Message[] = [userText('q1', 'u1'), assistantThinking('let me think'), redacted, assistantText('a1'), userText('q2', 'u2')];

  it('the fallback request holds every other message unchanged, in order', () => {
    const run = drive({ messages: history, fallbackModel: FALLBACK }, testConfig({ features: { stripThinkingOnFallback: true } }), {
      model: [overloaded(), reply(assistantText('From the fallback.'))],
    });
    expect(run.requests[0].messages).toEqual(history);
    expect(run.requests[1].messages).toEqual([history[0], history[3], history[4]]);
  });

  it('without thinking in the history, the fallback request is the same history', () => {
    const plain = [userText('q1', 'u1'), assistantText('a1'), userText('q2', 'u2')];
    const run = drive({ messages: plain, fallbackModel: FALLBACK }, testConfig(), { model: [overloaded(), reply(assistantText('ok'))] });
    expect(run.requests[1].messages).toEqual(plain);
  });
});

describe('streaming tool execution (docs/loop.md §4.5, §7.4)', () => {
  it('hands each tool_use to the executor with its own concurrency-safe flag', () => {
    const run = drive(params(), testConfig({ features: { streamingToolExecution: true } }), {
      model: [
        reply([assistantToolUse('t1', 'Read', {}), assistantToolUse('t2', 'Bash', {})], { concurrencySafe: { t1: true, t2: false } }),
        reply(assistantText('Done.')),
      ],
    });
    expect(effectsOf(run, 'enqueue_tool').map((e) => [e.toolUse.id, e.concurrencySafe])).toEqual([
      ['t1', true],
      ['t2', false],
    ]);
  });
});

describe('post-sampling hooks (docs/loop.md §4.6)', () => {
  it('fire with the sampled messages', () => {
    const text = assistantText('hello');
    const run = drive(params(), testConfig(), { model: [reply(text)] });
    expect(effectsOf(run, 'run_post_sampling_hooks')).toMatchObject([{ messages: [text] }]);
  });

  it('do not fire when nothing was sampled', () => {
    const run = drive(params(), testConfig(), { model: [reply([])] });
    expect(effectsOf(run, 'run_post_sampling_hooks')).toEqual([]);
  });
});

describe('tool-use summary (docs/loop.md §4.11, §4.8)', () => {
  const withTools = [reply(assistantToolUse('t1', 'Read', {})), reply(assistantText('Done.'))];
  const on = testConfig({ features: { toolUseSummaries: true } });

  it('starts after tools ran, naming their ids, and is emitted in the next iteration', () => {
    const run = drive(params(), on, { model: withTools });
    expect(effectsOf(run, 'start_tool_use_summary')).toMatchObject([{ toolUseIds: ['t1'] }]);
    expect(emittedOf(run, 'tool_use_summary')).toMatchObject([{ precedingToolUseIds: ['t1'] }]);
  });

  it.each([
    ['the feature off', params(), testConfig({ features: { toolUseSummaries: false } }), withTools],
    ['no tools ran', params(), on, [reply(assistantText('Done.'))]],
    ['a subagent', params('go', { querySource: 'agent:a1' }), on, withTools],
  ])('does not start with %s', (_label, runParams, config, model) => {
    const run = drive(runParams, config, { model });
    expect(effectsOf(run, 'start_tool_use_summary')).toEqual([]);
    expect(emittedOf(run, 'tool_use_summary')).toEqual([]);
  });

  it('does not start when the tools were aborted', () => {
    const run = drive(params(), on, { model: withTools, abort: { on: 'finish_tools', reason: 'user_cancel' } });
    expect(run.terminal?.reason).toBe('aborted_tools');
    expect(effectsOf(run, 'start_tool_use_summary')).toEqual([]);
  });
});

describe('the start of a run (docs/loop.md §4.2, §2)', () => {
  it('a resumed history starts at its last compact boundary', () => {
    const old = [userText('old question', 'u-old'), assistantText('old answer')];
    const resumed = [...old, ...compactSummary(), userText('new question', 'u-new')];
    const run = drive({ messages: resumed }, testConfig(), { model: [reply(assistantText('ok'))] });
    expect(run.requests[0].messages).toEqual(resumed.slice(2));
  });

  it('a history without a boundary is sent whole', () => {
    const history = [userText('q1', 'u1'), assistantText('a1'), userText('q2', 'u2')];
    const run = drive({ messages: history }, testConfig(), { model: [reply(assistantText('ok'))] });
    expect(run.requests[0].messages).toEqual(history);
  });

  it('user context goes first as a meta message; system context follows the system prompt', () => {
    const run = drive(
      params('hi', { systemPrompt: ['You are helpful.'], userContext: { cwd: '/repo' }, systemContext: { os: 'linux' } }),
      testConfig(),
      { model: [reply(assistantText('ok'))] },
    );
    const [request] = run.requests;
    const [first, second] = request.messages;
    expect(first).toMatchObject({ type: 'user', isMeta: true });
    expect(JSON.stringify(first)).toContain('cwd');
    expect(JSON.stringify(first)).toContain('/repo');
    expect(second).toMatchObject({ type: 'user', message: { content: 'hi' } });
    expect(request.system[0]).toBe('You are helpful.');
    expect(request.system).toHaveLength(2);
    expect(request.system[1]).toContain('os');
    expect(request.system[1]).toContain('linux');
  });

  it('without context, the history and system prompt are sent as given', () => {
    const run = drive(params('hi', { systemPrompt: ['You are helpful.'] }), testConfig(), { model: [reply(assistantText('ok'))] });
    expect(run.requests[0].messages).toMatchObject([{ type: 'user', message: { content: 'hi' } }]);
    expect(run.requests[0].messages).toHaveLength(1);
    expect(run.requests[0].system).toEqual(['You are helpful.']);
  });
});

describe('stop hooks (docs/loop.md §4.9.4)', () => {
  it('preventContinuation ends the run as stop_hook_prevented with the hook’s reason', () => {
    const run = drive(params(), testConfig(), {
      model: [reply(assistantText('Done.'))],
      stopHooks: [{ preventContinuation: true, stopReason: 'policy says stop' }],
    });
    expect(run.terminal).toEqual({ reason: 'stop_hook_prevented', stopReason: 'policy says stop' });
  });

  it('without a reason, the terminal carries none', () => {
    const run = drive(params(), testConfig(), { model: [reply(assistantText('Done.'))], stopHooks: [{ preventContinuation: true }] });
    expect(run.terminal).toEqual({ reason: 'stop_hook_prevented' });
  });
});
