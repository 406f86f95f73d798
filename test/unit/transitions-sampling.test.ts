/**
 * Sampling the model (docs/loop.md §4.5): model fallback, streaming fallback, withholding, and the error results that
 * answer orphaned tool_use blocks (docs/loop.md §7.6) when a model call fails.
 */
import { describe, expect, it } from 'vitest';
import type { Message } from '../../src/messages/types.ts';
import type { LoopEvent } from '../../src/data/events.ts';
import { initialState, step } from '../../src/reducer/step.ts';
import {
  apiError,
  assistantText,
  assistantThinking,
  assistantToolUse,
  compactFailed,
  drive,
  effectsOf,
  emittedOf,
  layerResult,
  modelFails,
  modelMessage,
  modelOverloaded,
  overloaded,
  params,
  reply,
  streamBreaks,
  testConfig,
  TEST_MODEL,
  toolResultFor,
  userText,
  type DriveResult,
} from '../helpers/index.ts';

const FALLBACK = 'claude-opus-4-1';

function toolResultsOf(run: DriveResult) {
  return emittedOf(run, 'user').flatMap((m) => (typeof m.message.content === 'string' ? [] : m.message.content)).filter((b) => b.type === 'tool_result');
}

const hasThinking = (messages: Message[]) =>
  messages.some((m) => m.type === 'assistant' && m.message.content.some((b) => b.type === 'thinking'));

describe('model fallback (docs/loop.md §4.5)', () => {
  const history = [userText('q1', 'u1'), assistantThinking('let me think'), assistantText('a1'), userText('q2', 'u2')];

  it('answers the attempt’s tool_uses, warns naming both models and retries on the fallback model, thinking kept', () => {
    const dropped = assistantToolUse('t1', 'Read', { path: 'a' });
    const run = drive({ messages: history, fallbackModel: FALLBACK }, testConfig(), {
      model: [overloaded([dropped]), reply(assistantText('From the fallback.'))],
    });
    expect(run.terminal?.reason).toBe('completed');
    expect(run.requests.map((r) => r.model)).toEqual([TEST_MODEL, FALLBACK]);
    // The public build keeps thinking signatures on fallback (stripping is internal-only): so does the default.
    expect(hasThinking(run.requests[0].messages)).toBe(true);
    expect(hasThinking(run.requests[1].messages)).toBe(true);
    const [orphan] = toolResultsOf(run);
    expect(String(orphan.content)).not.toMatch(/before it ran|did not run|never ran/);
    expect(run.requests[1].messages).not.toContainEqual(dropped);
    expect(toolResultsOf(run)).toMatchObject([{ tool_use_id: 't1', is_error: true }]);
    const [warning] = emittedOf(run, 'system');
    expect(warning.content).toContain(TEST_MODEL);
    expect(warning.content).toContain(FALLBACK);
    expect(effectsOf(run, 'discard_tools')).toMatchObject([{ reason: 'model_fallback' }]);
    expect(run.state.context.currentModel).toBe(FALLBACK);
    expect(run.continues).toEqual([]); // same request, same iteration
  });

  it('strips thinking from the history before the retry when features.stripThinkingOnFallback is on', () => {
    const run = drive({ messages: history, fallbackModel: FALLBACK }, testConfig({ features: { stripThinkingOnFallback: true } }), {
      model: [overloaded(), reply(assistantText('From the fallback.'))],
    });
    expect(hasThinking(run.requests[0].messages)).toBe(true);
    expect(hasThinking(run.requests[1].messages)).toBe(false);
  });

  it('a streamed tool that already ran keeps its real result: no synthetic result is added for it', () => {
    const config = testConfig();
    let { state, effects } = initialState({ messages: history, fallbackModel: FALLBACK }, config);
    const all = [...effects];
    const feed = (event: LoopEvent) => {
      ({ state, effects } = step(state, event, config));
      all.push(...effects);
    };
    for (let guard = 0; state.value !== 'sampling' && guard < 10; guard++) {
      const layer = all.filter((e) => e.type === 'context_layer').at(-1);
      if (layer?.type !== 'context_layer') break;
      feed(layerResult(layer.layer));
    }
    expect(state.value).toBe('sampling');
    feed(modelMessage(assistantToolUse('t1', 'Read', { path: 'a' })));
    feed(toolResultFor('t1', 'contents of a'));
    feed(modelMessage(assistantToolUse('t2', 'Read', { path: 'b' })));
    feed(modelOverloaded());
    const results = all.flatMap((e) =>
      e.type === 'emit' && e.message.type === 'user' && typeof e.message.message.content !== 'string'
        ? e.message.message.content.filter((b) => b.type === 'tool_result')
        : [],
    );
    expect(results.filter((r) => r.tool_use_id === 't1')).toEqual([expect.objectContaining({ content: 'contents of a' })]);
    expect(results.filter((r) => r.tool_use_id === 't2')).toMatchObject([{ is_error: true }]);
    expect(state.context.currentModel).toBe(FALLBACK);
  });

  // The original: an overload the caller gives up on is an API-error message; the ladder ends `completed` after
  // the stop-failure hooks, without stop hooks (docs/loop.md §4.5, §4.9.3).
  it('does not fall back twice: an overloaded fallback model is an API error that ends the run completed', () => {
    const run = drive({ messages: history, fallbackModel: FALLBACK }, testConfig(), { model: [overloaded(), overloaded()] });
    expect(run.terminal).toMatchObject({ reason: 'completed', apiError: { kind: 'other', status: 529, errorType: 'overloaded_error' } });
    expect(emittedOf(run, 'assistant').filter((m) => m.apiError)).toHaveLength(1);
    expect(effectsOf(run, 'run_stop_failure_hooks')).toHaveLength(1);
    expect(effectsOf(run, 'run_stop_hooks')).toEqual([]);
    expect(run.requests).toHaveLength(2);
  });

  it('an overload event with no fallback model left is an API-error ending, never model_error', () => {
    const run = drive(params(), testConfig(), { model: [overloaded()] });
    expect(run.terminal).toMatchObject({ reason: 'completed', apiError: { status: 529 } });
    expect(run.requests).toHaveLength(1);
  });
});

describe('streaming fallback (docs/loop.md §4.5)', () => {
  it('tombstones every message of the broken attempt, discards the executor and keeps the model', () => {
    const partial = [assistantText('Let me look'), assistantToolUse('t1', 'Read', {})];
    const final = assistantText('Answer without streaming.');
    const run = drive(params(), testConfig(), { model: [streamBreaks(partial), reply(final)] });
    expect(run.terminal?.reason).toBe('completed');
    expect(emittedOf(run, 'tombstone').map((t) => t.targetUuid)).toEqual(partial.map((m) => m.uuid));
    expect(effectsOf(run, 'discard_tools')).toMatchObject([{ reason: 'streaming_fallback' }]);
    expect(run.requests).toHaveLength(1);
    expect(run.state.context.currentModel).toBe(TEST_MODEL);
    expect(run.state.context.iter.assistantMessages).toEqual([final]);
    expect(run.state.context.iter.toolUses).toEqual([]);
  });

  // The original tombstones every message of the broken attempt, withheld ones included (they are in its list).
  it('tombstones a withheld message of the broken attempt too, also when the state went through JSON', () => {
    const cutOff = apiError('max_output_tokens');
    const script = { model: [streamBreaks([assistantText('Part'), cutOff]), reply(assistantText('Whole.'))] };
    for (const jsonState of [false, true]) {
      const run = drive(params(), testConfig(), script, { jsonState });
      expect(emittedOf(run, 'tombstone').map((t) => t.targetUuid), `jsonState: ${jsonState}`).toEqual(['a:Part', cutOff.uuid]);
      expect(run.terminal?.reason).toBe('completed');
    }
  });
});

describe('withholding (docs/loop.md §4.5)', () => {
  /** Whether `message` was emitted by the step that recorded it. */
  function shownAtOnce(run: DriveResult, message: Message) {
    const recorded = run.steps.find((s) => s.event.type === 'model_message' && s.event.message === message);
    return recorded?.effects.some((e) => e.type === 'emit' && e.message === message);
  }

  it.each([
    ['prompt_too_long', { reactiveCompact: true, contextCollapse: false }, false],
    ['prompt_too_long', { reactiveCompact: false, contextCollapse: true }, false],
    ['prompt_too_long', { reactiveCompact: false, contextCollapse: false }, true],
    ['media_size', { reactiveCompact: true, contextCollapse: false }, false],
    ['media_size', { reactiveCompact: false, contextCollapse: true }, true],
    ['max_output_tokens', { reactiveCompact: false, contextCollapse: false }, false],
  ] as const)('a %s error with %o is shown at once: %s', (kind, features, shown) => {
    const error = apiError(kind);
    const run = drive(params(), testConfig({ features }), {
      model: [reply(error), reply(assistantText('ok')), reply(assistantText('ok')), reply(assistantText('ok')), reply(assistantText('ok'))],
      reactiveCompact: [compactFailed()],
      collapseDrain: [{ committed: 0 }],
    });
    expect(shownAtOnce(run, error)).toBe(shown);
  });

  it('a withheld media-size error that reactive compact cannot fix ends as image_error', () => {
    const error = apiError('media_size', 'image exceeds 5 MB');
    const run = drive(params(), testConfig(), { model: [reply(error)], reactiveCompact: [compactFailed()] });
    expect(effectsOf(run, 'reactive_compact')).toMatchObject([{ trigger: 'media_size' }]);
    expect(run.terminal?.reason).toBe('image_error');
    expect(run.emitted).toContainEqual(error);
  });

  it('an API error that is not withheld ends the turn as completed, with stop-failure hooks instead of stop hooks', () => {
    const error = apiError('invalid_request', 'bad request');
    const run = drive(params(), testConfig(), { model: [reply(error)] });
    expect(run.terminal?.reason).toBe('completed');
    expect(effectsOf(run, 'run_stop_hooks')).toHaveLength(0);
    expect(effectsOf(run, 'run_stop_failure_hooks')).toMatchObject([{ error }]);
  });
});

describe('orphaned tool_use on a model error (docs/loop.md §7.6)', () => {
  it('emits one error tool_result per tool_use of the attempt, then the API-error message with the real text', () => {
    const streamed = [assistantToolUse('t1', 'Read', {}), assistantToolUse('t2', 'Grep', {})];
    const run = drive(params(), testConfig({ features: { streamingToolExecution: false } }), {
      model: [modelFails('connection reset', 'other', streamed)],
    });
    expect(run.terminal).toEqual({ reason: 'model_error', error: { message: 'connection reset' } });
    const tail = run.emitted.slice(-3);
    expect(tail.slice(0, 2).map((m) => m.type === 'user' && m.sourceToolUseId)).toEqual(['t1', 't2']);
    expect(toolResultsOf(run).every((b) => b.is_error && String(b.content).includes('connection reset'))).toBe(true);
    expect(tail[2]).toMatchObject({ type: 'assistant', apiError: { kind: 'other', text: 'connection reset' } });
  });
});
