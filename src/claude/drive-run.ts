/**
 * Re-driving one recorded run through the pure reducer with a scripted, in-process interpreter.
 *
 * The engine asks, the recording answers: `call_model` gets the next recorded reply (one `model_message` per
 * block, the tool results recorded between its blocks, then `model_done` with the recorded usage); tools get the
 * recorded results in recorded order; attachments are the user lines recorded after the tool results; what
 * Claude Code does not record (context layers, stop hooks, collapse drains) gets the answer that changes nothing,
 * the executor's fallback event (`src/runtime/effect-executors.ts`); autocompact is decided by the ENGINE and
 * answered with the recorded compaction when the transcript has one at that point (else it fails, and the mismatch
 * is noted).
 * Interrupts are replayed as an `abort` where the transcript shows them.
 *
 * Pure and synchronous: no clock, no network, no randomness (effects are processed from a FIFO queue).
 */
import { resolveConfig, type LoopConfig } from '../config/config.ts';
import type { Message } from '../messages/types.ts';
import { fallbackEventOf } from '../runtime/effect-executors.ts';
import { isAwaitedEffect, type AwaitedEffectType } from '../machine/effect-protocol.ts';
import type { Effect, EffectOf } from '../data/effects.ts';
import type { LoopEvent } from '../data/events.ts';
import type { LoopParams, LoopState } from '../data/state.ts';
import { createStepper } from '../reducer/stepper.ts';
import type { RecordedReply, RecordedRun, RunStep } from './runs.ts';

export interface DrivenRun {
  state: LoopState;
  /** What the run started from (history and prompt), as `initialState` got it. */
  params: LoopParams;
  /** Every event the engine was fed, in order: folding them from `params` with `step()` gives `state` again. */
  events: LoopEvent[];
  emitted: Message[];
  /** Tool results fed to the engine, in order (tool_use ids). */
  fedResults: string[];
  /** 1-based model call before which the engine autocompacted (successfully or not). */
  engineCompactions: number[];
  /** The engine's token count (what autocompact compares) before each model call, in call order. */
  callTokens: number[];
  /** 1-based model calls before which the transcript compacts automatically and the engine did not. */
  missedCompactions: number[];
  /** Model calls the engine made beyond the recording (answered with an abort, or left pending). */
  extraCalls: number;
  /** Notes on anything the recording could not answer. */
  notes: string[];
}

const ABORT_REASON = 'user_cancel';

/** The config a transcript run is checked under: defaults, the recorded model, nothing else. */
export function checkConfig(run: RecordedRun, sessionId = 'claude-transcript'): LoopConfig {
  return resolveConfig({ sessionId: `${sessionId}:run${run.index}`, model: run.model });
}

export function driveRun(run: RecordedRun, options: { querySource?: string; config?: LoopConfig; maxSteps?: number } = {}): DrivenRun {
  const config = options.config ?? checkConfig(run);
  const steps: RunStep[] = [...run.steps];
  const params: LoopParams = { messages: [...run.history, ...run.prompt], querySource: options.querySource ?? 'repl_main_thread', startedAt: 0 };
  const out: DrivenRun = { state: undefined as unknown as LoopState, params, events: [], emitted: [], fedResults: [], engineCompactions: [], callTokens: [], missedCompactions: [], extraCalls: 0, notes: [] };
  const { initialState, step } = createStepper({ memo: true });
  const started = initialState(params, config);
  let state = started.state;
  const queue: Effect[] = [...started.effects];
  let budget = options.maxSteps ?? 100_000;

  const feed = (event: LoopEvent) => {
    if (state.status === 'done' || budget-- <= 0) return;
    const result = step(state, event, config);
    out.events.push(event);
    state = result.state;
    queue.push(...result.effects);
  };
  const nextIs = (kind: RunStep['kind']) => steps[0]?.kind === kind;
  /** Tool results (and attachments) recorded right here, before the next reply or compaction. */
  const takeResults = (afterBlock?: number) => {
    while (nextIs('tool_result') && (afterBlock === undefined || (steps[0] as { afterBlock: number }).afterBlock <= afterBlock)) {
      const s = steps.shift() as Extract<RunStep, { kind: 'tool_result' }>;
      out.fedResults.push(s.toolUseId);
      feed({ type: 'tool_result', toolUseId: s.toolUseId, message: s.message });
    }
  };
  const answerModel = (reply: RecordedReply, last: boolean) => {
    for (const [i, block] of reply.blocks.entries()) {
      feed({ type: 'model_message', message: block });
      // Results recorded between blocks arrived while the reply streamed; those after the last block wait for the tools phase.
      if (i < reply.blocks.length - 1) takeResults(i + 1);
    }
    const interruptedMidReply = last && run.ending === 'aborted_streaming' && steps.length === 0;
    if (interruptedMidReply) feed({ type: 'abort', reason: ABORT_REASON });
    else feed({ type: 'model_done', ...(reply.usage ? { usage: reply.usage } : {}), stopReason: reply.blocks.some((b) => b.message.content.some((c) => c.type === 'tool_use')) ? 'tool_use' : 'end_turn' });
  };
  const finishTools = () => {
    takeResults();
    if (run.ending === 'aborted_tools' && !steps.some((s) => s.kind === 'reply')) feed({ type: 'abort', reason: ABORT_REASON });
    feed({ type: 'tools_finished' });
  };

  /**
   * The recording's answer to the effects a state waits on that Claude Code records. Any other awaited effect
   * (context layers, stop hooks, drains, and any effect added later) gets its executor's fallback event: the answer
   * that changes nothing.
   */
  const answers: { [T in AwaitedEffectType]?: (effect: EffectOf<T>) => void } = {
    autocompact: (effect) => {
      out.engineCompactions.push(state.context.modelCalls + 1);
      const s = steps[0];
      if (s?.kind === 'compact') {
        steps.shift();
        feed({ type: 'autocompact_result', ok: true, postCompactMessages: [s.boundary, ...s.summary], preCompactTokens: s.preTokens ?? effect.tokenCount });
      } else {
        feed({ type: 'autocompact_result', ok: false, error: 'the transcript has no compaction here' });
      }
    },
    call_model: (effect) => {
      const { tokens, iter } = state.context;
      out.callTokens.push(Math.max(0, tokens.reported + tokens.estimatedSince - iter.tokensFreed));
      // Judged by the caller (check.ts): the transcript may not record all the context Claude Code counted.
      if (nextIs('compact')) out.missedCompactions.push(effect.modelCall);
      while (nextIs('compact')) steps.shift();
      const s = steps.shift();
      if (s?.kind === 'reply') {
        answerModel(s.reply, !steps.some((x) => x.kind === 'reply'));
        return;
      }
      if (s) steps.unshift(s);
      out.extraCalls += 1;
      if (run.ending === 'aborted_streaming') feed({ type: 'abort', reason: ABORT_REASON });
      else if (run.ending !== 'incomplete') out.notes.push(`model call ${effect.modelCall} has no recorded reply`);
    },
    run_tools: finishTools,
    finish_tools: finishTools,
    collect_attachments: () => {
      const attachments: Message[] = [];
      while (nextIs('attachment')) attachments.push((steps.shift() as Extract<RunStep, { kind: 'attachment' }>).message);
      feed({ type: 'attachments_collected', attachments });
    },
    reactive_compact: () => feed({ type: 'reactive_compact_result', ok: false, error: 'no reactive compaction in the transcript' }),
  };

  while (queue.length > 0 && budget > 0) {
    const effect = queue.shift() as Effect;
    if (effect.type === 'emit') out.emitted.push(effect.message);
    // Only what a state waits on is answered; the rest (fire and forget, answered any time) needs nothing here.
    else if (isAwaitedEffect(effect)) {
      const answer = answers[effect.type] as ((effect: Effect) => void) | undefined;
      if (answer) answer(effect);
      else feed(fallbackEventOf(effect));
    }
  }
  if (steps.length > 0) out.notes.push(`${steps.length} recorded step(s) were never asked for (first: ${steps[0].kind})`);
  out.state = state;
  return out;
}
