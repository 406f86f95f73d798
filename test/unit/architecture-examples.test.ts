/**
 * The two worked examples of docs/architecture.md ("How to add an effect", "How to add a state"), done as the doc
 * says on a copy of the loop machine, then folded with xstate's `transition()` over the events of a real run. If
 * the house rules stop being true (an effect not returned as data, a waiting state not seen by the protocol), this
 * fails.
 */
import { setup, type AnyStateMachine } from 'xstate';
import { describe, expect, it } from 'vitest';
import { EFFECT_EXECUTORS, executorProblems } from '../../src/runtime/effect-executors.ts';
import { deriveEffectProtocol, protocolProblems } from '../../src/machine/effect-protocol.ts';
import { loopAction, loopMachine, type LoopMachine } from '../../src/machine/loop-machine.ts';
import { openOutbox, type ActionFn } from '../../src/machine/machine-context.ts';
import type { Effect } from '../../src/data/effects.ts';
import type { LoopEvent } from '../../src/data/events.ts';
import type { LoopState } from '../../src/data/state.ts';
import { transitionOf, type StepResult } from '../../src/reducer/step.ts';
import { assistantText, assistantToolUse, drive, params, reply, testConfig } from '../helpers/index.ts';

type Config = { meta: Record<string, unknown>; states: Record<string, Record<string, unknown>> };
const config = testConfig();
const base = loopMachine.config as unknown as Config;
const { guards, actions } = loopMachine.implementations;

/** A real run with one tool turn: the events a copy of the machine is folded over. */
const run = drive(params(), config, { model: [reply(assistantToolUse('t1', 'Read', { path: 'README.md' })), reply(assistantText('Read it.'))], tools: { t1: '# turnloop' } });

function copyOf(chart: Config, extraActions: Record<string, unknown>): LoopMachine {
  return setup({ guards, actions: { ...actions, ...extraActions } } as never).createMachine(chart as never) as unknown as LoopMachine;
}

/** Folds `events` through `machine` with `transitionOf` (what `step()` does for the loop machine). */
function fold(machine: LoopMachine, start: LoopState, events: LoopEvent[]): { state: LoopState; effects: Effect[][] } {
  let state = start;
  const effects: Effect[][] = [];
  for (const event of events) {
    if (state.status === 'done') break;
    const next: StepResult | null = transitionOf(machine, state, event, config);
    effects.push(next?.effects ?? []);
    state = next?.state ?? state;
  }
  return { state, effects };
}

describe('docs/architecture.md, worked examples', () => {
  it('adds an effect: turn_started, fire and forget, queued on the next_turn Continue', () => {
    // 2. The action that queues it.
    const announceTurnStart: ActionFn = (context) => openOutbox(context).push({ type: 'turn_started', turn: context.turnCount } as never).patch();
    // 3. The chart: the action on the transition, the effect declared, and its (inert) effect action.
    const turnLimit = base.states['turnLimit'] as { always: Array<Record<string, unknown>> };
    const chart: Config = {
      ...base,
      meta: { effects: { ...(base.meta['effects'] as object), fireAndForget: [...((base.meta['effects'] as { fireAndForget: string[] }).fireAndForget), 'turn_started'] } },
      states: { ...base.states, turnLimit: { ...turnLimit, always: [turnLimit.always[0]!, { ...turnLimit.always[1]!, actions: ['continueNextTurn', 'announceTurnStart'] }] } },
    };
    const machine = copyOf(chart, { announceTurnStart: loopAction(announceTurnStart), turn_started: () => undefined });

    const folded = fold(machine, run.start.state, run.steps.map((s) => s.event));
    const all = folded.effects.flat();
    expect(all.filter((e) => (e.type as string) === 'turn_started')).toEqual([expect.objectContaining({ type: 'turn_started', turn: 2 })]);
    // Everything else is what the loop machine did (ids aside: the new effect took one).
    expect(all.filter((e) => (e.type as string) !== 'turn_started').map((e) => e.type)).toEqual(run.effects.slice(run.start.effects.length).map((e) => e.type));
    expect(folded.state.context.terminal).toEqual(run.terminal);
    expect(deriveEffectProtocol(machine).effects['turn_started' as never]).toMatchObject({ kind: 'fire_and_forget', answers: [] });
    expect(protocolProblems(machine as AnyStateMachine)).toEqual([]);
    // 4. The executor: an entry in EFFECT_EXECUTORS; without it the copy's protocol names the missing executor.
    const protocol = deriveEffectProtocol(machine).effects;
    expect(executorProblems(protocol, EFFECT_EXECUTORS)).toEqual(['turn_started has no executor']);
    const turnStarted = { kind: 'observe' as const, hasWork: () => false, run: () => undefined };
    expect(executorProblems(protocol, { ...EFFECT_EXECUTORS, turn_started: turnStarted })).toEqual([]);
  });

  it('adds a state: confirmingTools waits for confirm_tools between the tools and the attachments', () => {
    const requestToolConfirmation: ActionFn = (context) =>
      openOutbox(context).push({ type: 'confirm_tools', toolUseIds: context.iter.toolUses.map((t) => t.id) } as never).patch();
    const afterTools = base.states['afterTools'] as { always: Array<Record<string, unknown>> };
    const confirmingTools = {
      meta: { awaits: { effects: ['confirm_tools'], answers: ['tools_confirmed'] } },
      on: { tools_confirmed: { target: 'collectingAttachments', actions: 'requestAttachments' } },
    };
    const chart: Config = {
      ...base,
      states: {
        ...base.states,
        afterTools: { ...afterTools, always: [...afterTools.always.slice(0, 2), { target: 'confirmingTools', actions: 'requestToolConfirmation' }] },
        confirmingTools,
      },
    };
    const machine = copyOf(chart, { requestToolConfirmation: loopAction(requestToolConfirmation), confirm_tools: () => undefined });
    expect(protocolProblems(machine as AnyStateMachine)).toEqual([]);
    expect(deriveEffectProtocol(machine).waitingStates['confirmingTools']).toEqual({ effects: ['confirm_tools'], answers: ['tools_confirmed'] });
    // Its executor answers, with a fallback event for when the work fails (a state waits on it).
    const confirmTools = { kind: 'once' as const, local: false, run: () => ({ type: 'tools_confirmed' }) as never, fallback: () => ({ type: 'tools_confirmed' }) as never };
    const protocol = deriveEffectProtocol(machine).effects;
    expect(executorProblems(protocol, { ...EFFECT_EXECUTORS, confirm_tools: { ...confirmTools, fallback: null } })).toEqual(['confirm_tools is awaited, but its executor has no fallback event']);
    expect(executorProblems(protocol, { ...EFFECT_EXECUTORS, confirm_tools: confirmTools })).toEqual([]);

    // Fold the real run; answer confirm_tools where it is asked for.
    const events = run.steps.map((s) => s.event);
    const atTools = events.findIndex((e) => e.type === 'tools_finished');
    const before = fold(machine, run.start.state, events.slice(0, atTools + 1));
    expect(before.state.value).toBe('confirmingTools');
    expect(before.effects.at(-1)).toEqual([expect.objectContaining({ type: 'confirm_tools', toolUseIds: ['t1'] })]);
    const confirmed = fold(machine, before.state, [{ type: 'tools_confirmed' } as unknown as LoopEvent]);
    expect(confirmed.state.value).toBe('collectingAttachments');
    expect(confirmed.effects[0]!.map((e) => e.type)).toEqual(['collect_attachments']);
    const after = fold(machine, confirmed.state, events.slice(atTools + 1));
    expect(after.state.status).toBe('done');
    expect(after.state.context.terminal).toEqual(run.terminal);

    // Without its declaration the protocol check names the state.
    const undeclared = copyOf({ ...chart, states: { ...chart.states, confirmingTools: { on: confirmingTools.on } } }, {
      requestToolConfirmation: loopAction(requestToolConfirmation),
      confirm_tools: () => undefined,
    });
    expect(protocolProblems(undeclared as AnyStateMachine)).toEqual(['confirmingTools waits but declares no meta.awaits']);
  });
});
