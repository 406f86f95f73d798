/**
 * Optional live inspection with Stately's inspector (`@statelyai/inspect`, NOT a dependency: it needs network
 * and a browser). When the user installed it, `turnloop viz session.jsonl --inspect` replays the session
 * through an xstate actor of the loop machine with the inspector attached, so Stately's inspector shows the
 * statechart and each event live. The machine's actions only write context (they queue effects as data), so
 * running an actor here executes nothing. See docs/statechart.md, "Live inspection".
 */
import { createActor } from 'xstate';
import { loopMachine } from '../machine/loop-machine.ts';
import { createInitialContext, toMachineContext } from '../machine/context-conversions.ts';
import type { SessionForView } from './session.ts';
import { TurnloopError } from '../errors/turnloop-error.ts';

export const INSPECT_PACKAGE = '@statelyai/inspect';

export const INSPECT_HOWTO = `Live inspection uses ${INSPECT_PACKAGE}, which turnloop does not install (it needs network access).
  npm install --save-dev ${INSPECT_PACKAGE}
  turnloop viz session.jsonl --inspect
or, in your own code:
  import { createBrowserInspector } from '${INSPECT_PACKAGE}';   // in a browser
  const actor = createActor(loopMachine, { input, inspect: createBrowserInspector().inspect });
See docs/statechart.md#live-inspection.`;

/** The optional package is not installed. */
export class InspectorUnavailableError extends TurnloopError {
  readonly exitCode = 2;
  constructor() {
    super('INSPECTOR_UNAVAILABLE', `${INSPECT_PACKAGE} is not installed.\n${INSPECT_HOWTO}`);
    this.name = 'InspectorUnavailableError';
  }
}

interface Inspector {
  inspect: unknown;
  stop?: () => void;
}

type InspectModule = Record<string, ((options?: Record<string, unknown>) => Inspector) | undefined>;

/** Loads the optional package; `load` is injectable for tests. */
export async function loadInspector(load: () => Promise<unknown> = () => import(INSPECT_PACKAGE as string)): Promise<Inspector> {
  let mod: InspectModule;
  try {
    mod = (await load()) as InspectModule;
  } catch {
    throw new InspectorUnavailableError();
  }
  const create = mod['createSkyInspector'] ?? mod['createWebSocketInspector'];
  if (!create) throw new InspectorUnavailableError();
  return create({ autoStart: true });
}

/** Replays a session into the inspector, one event at a time. Returns the number of events sent. */
export function replayIntoInspector(session: SessionForView, inspector: Inspector): number {
  const input = toMachineContext(createInitialContext(session.params, session.config), session.config);
  const actor = createActor(loopMachine, { input, inspect: inspector.inspect as never });
  actor.start();
  for (const event of session.events) actor.send(event);
  actor.stop();
  return session.events.length;
}
