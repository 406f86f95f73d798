/**
 * Recorded sessions for the export round trips: every scenario in `examples/scenarios/` run by the simulator
 * (`simulateScenario`, the real query() against the loopback fake API) with recording on, then read back with
 * the viewer's log parser, and a scripted run for what no example reaches. Together they reach all 7 Continues
 * and all 10 Terminals.
 *
 * `driveRealMachine` runs the real `loopMachine` through xstate's pure `initialTransition()`/`transition()` on
 * such a session and keeps, per macrostep, the state value, the context and the guards and actions xstate went
 * through (the machine's own trace hooks), the reference an export is compared with.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { createActor, type AnyActorScope, type AnyStateMachine } from 'xstate';
import { guards } from '../../../src/machine/guards.ts';
import { actionImplementations } from '../../../src/machine/actions/index.ts';
import { loopMachine } from '../../../src/machine/loop-machine.ts';
import { createTraceCollector, withTracer } from '../../../src/machine/macrostep-trace.ts';
import type { LoopEvent } from '../../../src/data/events.ts';
import { createInitialContext, toMachineContext } from '../../../src/machine/context-conversions.ts';
import { loadScenario } from '../../../src/scenario/load-scenario.ts';
import { simulateScenario } from '../../../src/scenario/simulate.ts';
import { parseSessionLog, type SessionForView } from '../../../src/viz/session.ts';
import { drive, modelFails, params, testConfig } from '../../helpers/index.ts';
import { recordedLog } from './fixtures.ts';

const DIR = join(import.meta.dirname, '../../../examples/scenarios');

export interface RecordedSession {
  name: string;
  session: SessionForView;
}

/**
 * Simulates and records every example scenario, plus scripted runs for the endings no example reaches (a
 * `model_error` terminal: the simulator turns API failures into API-error messages that end `completed`).
 */
export async function recordExampleSessions(): Promise<RecordedSession[]> {
  const out: RecordedSession[] = [];
  const failing = { config: testConfig(), params: params('Hello?') };
  const run = drive(failing.params, failing.config, { model: [modelFails('the stream broke')] });
  out.push({ name: 'scripted-model-error', session: parseSessionLog(recordedLog({ ...failing, events: run.steps.map((s) => s.event) })) });
  for (const file of readdirSync(DIR).filter((f) => f.endsWith('.json')).sort()) {
    let text = '';
    await simulateScenario(loadScenario(join(DIR, file), DIR), { record: { write: (t: string) => (text += t) } });
    out.push({ name: file.replace(/\.json$/, ''), session: parseSessionLog(text, file) });
  }
  return out;
}

export interface GuardCall {
  name: string;
  params?: unknown;
  result: boolean;
}

export interface ActionCall {
  name: string;
  params?: unknown;
}

export interface Macrostep {
  /** null for the initial macrostep. */
  event: LoopEvent | null;
  value: unknown;
  status: string;
  context: unknown;
  guards: GuardCall[];
  actions: ActionCall[];
}

const guardNames = new Map<unknown, string>(Object.entries(guards).map(([name, fn]) => [fn, name]));
const actionNames = new Map<unknown, string>(Object.entries(actionImplementations).map(([name, fn]) => [fn, name]));

function withParams<T extends { name: string }>(base: T, params: unknown): T & { params?: unknown } {
  return params === undefined ? base : { ...base, params };
}

/** The machine input of a session: the context a run starts from. */
export function sessionInput(session: SessionForView) {
  return toMachineContext(createInitialContext(session.params, session.config), session.config);
}

function inertScope(machine: AnyStateMachine): AnyActorScope {
  const self = createActor(machine, { input: undefined });
  const noop = () => undefined;
  return { self, id: '', sessionId: '', logger: noop, defer: noop, emit: noop, stopChild: noop, system: self.system, actionExecutor: noop } as unknown as AnyActorScope;
}

/**
 * Drives `machine` (the real loop machine unless given) through a session, macrostep by macrostep. Its guards and
 * actions report to a tracer the session's input context carries (`withTracer`).
 */
export function driveMachine(session: SessionForView, machine: AnyStateMachine = loopMachine): Macrostep[] {
  const tracer = createTraceCollector();
  const recordMacrostep = <T>(run: () => T) => tracer.record(run);
  const scope = inertScope(machine);
  const steps: Macrostep[] = [];
  const record = (event: LoopEvent | null, run: () => unknown) => {
    const { result, trace } = recordMacrostep(run);
    const [snapshot] = result as [{ value: unknown; status: string; context: unknown }];
    steps.push({
      event,
      value: snapshot.value,
      status: snapshot.status,
      context: snapshot.context,
      guards: trace.flatMap((s) => (s.kind === 'guard' ? [withParams({ name: guardNames.get(s.fn) ?? '?', result: s.result }, s.params)] : [])),
      actions: trace.flatMap((s) => (s.kind === 'action' ? [withParams({ name: actionNames.get(s.fn) ?? '?' }, s.params)] : [])),
    });
    return snapshot;
  };
  // An actor, not initialTransition(): xstate's initialTransition() runs the initial entry action twice (the
  // same context results), which would make the traced action list differ from what an interpreter runs.
  let snapshot = record(null, () => [createActor(machine, { input: withTracer(sessionInput(session), tracer) }).start().getSnapshot()]) as never;
  for (const event of session.events) {
    if ((snapshot as { status: string }).status === 'done') break;
    snapshot = record(event, () => [machine.transition(snapshot, event, scope)]) as never;
  }
  return steps;
}
