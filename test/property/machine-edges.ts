/**
 * The edges of the loop statechart, enumerated from the machine itself (every `on` transition and every `always`
 * branch of every state node), and a recorder of the edges a run of the machine takes (xstate's
 * `@xstate.microstep` inspection events carry the transition definitions of each microstep).
 */
import { createActor, type AnyMachineSnapshot, type AnyStateNode, type InspectionEvent } from 'xstate';
import type { LoopConfig } from '../../src/config/config.ts';
import { loopMachine } from '../../src/machine/loop-machine.ts';
import type { MachineContext } from '../../src/machine/machine-context.ts';
import type { LoopEvent } from '../../src/data/events.ts';
import { createInitialContext, toMachineContext } from '../../src/machine/context-conversions.ts';
import type { LoopParams } from '../../src/data/state.ts';

export type TransitionDefinition = AnyStateNode['always'] extends Array<infer T> | undefined ? T : never;

export interface Edge {
  /** Stable label: `<source id> --<event>[<branch>]--> <targets>`, with `meta.continue` when it has one. */
  label: string;
  definition: TransitionDefinition;
}

function allStateNodes(node: AnyStateNode): AnyStateNode[] {
  return [node, ...Object.values(node.states).flatMap((child) => allStateNodes(child as AnyStateNode))];
}

function labelOf(definition: TransitionDefinition, eventType: string, branch: number): string {
  const targets = (definition.target ?? []).map((t: AnyStateNode) => t.id).join(',') || '(self)';
  const meta = (definition as { meta?: { continue?: string } }).meta?.continue;
  const guard = definition.guard ? ` if ${typeof definition.guard === 'string' ? definition.guard : JSON.stringify((definition.guard as { type?: string }).type)}` : '';
  return `${definition.source.id} --${eventType || 'always'}[${branch}]${guard}--> ${targets}${meta ? ` (continue: ${meta})` : ''}`;
}

/** Every edge of the machine. */
export function machineEdges(): Edge[] {
  const edges: Edge[] = [];
  for (const node of allStateNodes(loopMachine.root)) {
    for (const [eventType, definitions] of node.transitions) {
      definitions.forEach((definition, branch) => edges.push({ label: labelOf(definition, eventType, branch), definition }));
    }
    (node.always ?? []).forEach((definition, branch) => edges.push({ label: labelOf(definition, '', branch), definition }));
  }
  return edges;
}

/** The machine context a run starts with (what `initialState` gives the machine). */
export function machineInput(params: LoopParams, config: LoopConfig): MachineContext {
  return toMachineContext(createInitialContext(params, config), config);
}

/**
 * Drives the machine along a path of events with a live (but side-effect free: actions only assign) actor and
 * returns the transition definitions of every microstep taken, including the initial `always` chain.
 */
export function edgesTakenAlong(input: MachineContext, events: readonly LoopEvent[], taken = new Set<TransitionDefinition>()) {
  const actor = createActor(loopMachine, { input, inspect: recordInto(taken) });
  actor.start();
  for (const event of events) actor.send(event);
  actor.stop();
  return taken;
}

/** The same, for one event sent from a snapshot reached before (a one-event extension of a path). */
export function edgesTakenFrom(snapshot: AnyMachineSnapshot, event: LoopEvent, taken = new Set<TransitionDefinition>()) {
  const actor = createActor(loopMachine, { snapshot, input: undefined as never, inspect: recordInto(taken) });
  actor.start();
  actor.send(event);
  actor.stop();
  return taken;
}

function recordInto(taken: Set<TransitionDefinition>) {
  return (event: InspectionEvent) => {
    if (event.type === '@xstate.microstep') for (const t of event._transitions) taken.add(t as TransitionDefinition);
  };
}
