/**
 * The exports in their real consumers, on recorded sessions (every example scenario, simulated and recorded):
 * - JSON: `createMachine()` from xstate 5 loads it as is; with the loop's guards and actions supplied by name it
 *   goes through the same state values, contexts, guards and actions as the real machine after every event;
 * - SCXML: the SCION interpreter (`@scion-scxml/scxml`) runs it with the ECMAScript datamodel, fed each event
 *   with the real guard outcomes as event data (see `src/viz/export-scxml.ts`): same configuration and same
 *   actions as the real machine after every event, and a terminal ends the interpreter.
 */
import { createRequire } from 'node:module';
import { createMachine, setup } from 'xstate';
import { beforeAll, describe, expect, it } from 'vitest';
import { loopMachine } from '../../src/machine/loop-machine.ts';
import { CONTINUE_REASONS, TERMINAL_REASONS } from '../../src/data/outcomes.ts';
import { exportJson } from '../../src/viz/export-json.ts';
import { exportScxml, SCXML_ACTION_LABEL } from '../../src/viz/export-scxml.ts';
import { leafOf } from '../../src/viz/graph.ts';
import { driveMachine, recordExampleSessions, type Macrostep, type RecordedSession } from '../unit/viz/recorded-sessions.ts';

let sessions: RecordedSession[] = [];
beforeAll(async () => {
  sessions = await recordExampleSessions();
}, 120_000);

describe('recorded sessions', () => {
  it('reach every Continue and every Terminal', () => {
    const reached = new Set<string>();
    for (const { session } of sessions) {
      for (const step of driveMachine(session)) {
        const ctx = step.context as { transition?: { reason: string } | null; terminal?: { reason: string } | null };
        if (ctx.transition?.reason) reached.add(ctx.transition.reason);
        if (ctx.terminal?.reason) reached.add(ctx.terminal.reason);
      }
    }
    expect([...reached].sort()).toEqual([...CONTINUE_REASONS, ...TERMINAL_REASONS].sort());
  });
});

describe('JSON export in xstate', () => {
  const json = JSON.parse(exportJson()) as Record<string, unknown>;

  it('createMachine() loads the JSON as is, every state included', () => {
    const machine = createMachine(json as never);
    const ids = (m: { root: { id: string; states: object } }) => {
      const out: string[] = [];
      const walk = (n: { id: string; states: object }) => {
        out.push(n.id);
        Object.values(n.states).forEach(walk);
      };
      walk(m.root);
      return out;
    };
    expect(ids(machine as never)).toEqual(ids(loopMachine as never));
    expect(ids(machine as never)).toHaveLength(43);
  });

  it('with the guards and actions supplied by name, it follows the real machine on every recorded session', () => {
    const { guards, actions } = loopMachine.implementations;
    const machine = setup({ guards, actions } as never).createMachine({ ...json, context: ({ input }: { input: unknown }) => input } as never);
    let events = 0;
    for (const { name, session } of sessions) {
      const real = driveMachine(session);
      const fromJson = driveMachine(session, machine as never);
      expect(fromJson.length, name).toBe(real.length);
      real.forEach((step, i) => {
        const other = fromJson[i]!;
        const where = `${name} event ${i}`;
        expect(other.value, where).toEqual(step.value);
        expect(other.status, where).toBe(step.status);
        expect(other.guards, where).toEqual(step.guards);
        expect(other.actions, where).toEqual(step.actions);
        expect(other.context, where).toEqual(step.context);
      });
      events += real.length - 1;
      expect(real.at(-1)!.status, name).toBe('done');
    }
    expect(events).toBeGreaterThan(150);
  });
});

interface ScionModule {
  documentStringToModel(url: string, doc: string, cb: (err: Error | null, model: { prepare(cb: (err: Error | null, fn: unknown) => void): void }) => void): void;
  core: {
    Statechart: new (fn: unknown, opts: Record<string, unknown>) => {
      start(): string[];
      gen(event: { name: string; data: unknown }): string[];
      getConfiguration(): string[];
      isFinal(): boolean;
      getSnapshot(): [string[], unknown, boolean, Record<string, unknown>];
    };
  };
}

const scion = createRequire(import.meta.url)('@scion-scxml/scxml') as ScionModule;

function prepare(doc: string): Promise<unknown> {
  return new Promise((resolve, reject) => {
    scion.documentStringToModel('turnloop.scxml', doc, (err, model) => {
      if (err) return reject(err);
      model.prepare((err2, fn) => (err2 ? reject(err2) : resolve(fn)));
    });
  });
}

const plainGuards = (step: Macrostep) => step.guards.map((g) => ({ name: g.name, params: g.params ?? null, result: g.result }));

describe('SCXML export in SCION', () => {
  it('SCION runs it: same configuration and actions as the real machine after every event, terminals end it', async () => {
    const fn = await prepare(exportScxml());
    let events = 0;
    for (const { name, session } of sessions) {
      const real = driveMachine(session);
      const logged: unknown[] = [];
      const sc = new scion.core.Statechart(fn, {
        params: { tlInitialGuards: plainGuards(real[0]!) },
        console: { log: (label: string, value: unknown) => label === SCXML_ACTION_LABEL && logged.push(value) },
      });
      const configOf = (step: Macrostep) => [step.status === 'done' ? (step.value as string) : leafOf(step.value as never)];
      sc.start();
      real.forEach((step, i) => {
        const where = `${name} event ${i} (${step.event?.type ?? 'start'})`;
        if (step.event) sc.gen({ name: step.event.type, data: { guards: plainGuards(step), event: step.event } });
        expect(sc.getConfiguration(), where).toEqual(configOf(step));
        expect(logged.splice(0), where).toEqual(step.actions.map((a) => (a.params === undefined ? { name: a.name } : a)));
        expect(sc.getSnapshot()[3]['tlErrors'], where).toEqual([]);
        expect(sc.isFinal(), where).toBe(step.status === 'done');
      });
      events += real.length - 1;
    }
    expect(events).toBeGreaterThan(150);
  });

  it('a wrong guard outcome list is noticed (the check can fail)', async () => {
    const fn = await prepare(exportScxml());
    const sc = new scion.core.Statechart(fn, { params: { tlInitialGuards: [{ name: 'notAGuard', params: null, result: true }] }, console: { log() {} } });
    sc.start();
    expect((sc.getSnapshot()[3]['tlErrors'] as unknown[]).length).toBeGreaterThan(0);
  });
});
