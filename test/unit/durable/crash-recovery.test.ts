/**
 * Crash the durable driver at every journal position of a scripted session and recover with what the journal
 * kept: the transcript is the uninterrupted one, and no effect is executed twice. A crash inside the window (the
 * effect ran, its result was not journaled yet) re-runs exactly that one effect.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool } from '../../../src/tools/define-tool.ts';
import { demoSessionOptions, readToolLog } from '../../../src/durable/demo-session.ts';
import {
  DurableCodeChangedError, exportDurableSessionLog, interruptedToolText, JournalDivergenceError, MemoryJournal, runDurableQuery,
} from '../../../src/durable/index.ts';
import type { ModelCaller } from '../../../src/data/deps.ts';
import { replay } from '../../../src/replay/replay.ts';
import { whatIf } from '../../../src/replay/what-if.ts';
import { main } from '../../../src/cli/main.ts';
import { CrashingJournal, SimulatedCrash } from '../../helpers/crashing-journal.ts';

const TURNS = 4;
let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'turnloop-durable-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function session(name: string) {
  const executed = { model: 0, tool: 0 };
  const toolLog = join(dir, `${name}.log`);
  const options = demoSessionOptions({ sessionId: 'crash-test', turns: TURNS, toolLog, onPhase: (phase) => void (executed[phase] += 1) });
  return { options, executed, toolLog };
}

async function uninterrupted() {
  const { options, executed } = session('reference');
  const journal = new MemoryJournal();
  const { items, terminal } = await runDurableQuery({ ...options, journal });
  return { items, terminal, executed, entries: journal.entries };
}

describe('crash at every journal position, then recover', () => {
  it('gives the uninterrupted transcript and executes no effect twice', async () => {
    const reference = await uninterrupted();
    expect(reference.terminal.reason).toBe('completed');
    expect(reference.executed).toEqual({ model: TURNS + 1, tool: TURNS });
    expect(reference.entries.length).toBeGreaterThan(2 * TURNS);
    for (let crashAt = 0; crashAt < reference.entries.length; crashAt++) {
      const { options, executed, toolLog } = session(`crash-${crashAt}`);
      const crashing = new CrashingJournal(crashAt, false);
      await expect(runDurableQuery({ ...options, journal: crashing })).rejects.toThrow(SimulatedCrash);
      expect(crashing.entries.length).toBe(crashAt);
      const recovered = await runDurableQuery({ ...options, journal: new MemoryJournal(crashing.entries) });
      expect(recovered.items, `crash at ${crashAt}`).toEqual(reference.items);
      expect(recovered.terminal).toEqual(reference.terminal);
      expect(executed, `crash at ${crashAt}`).toEqual(reference.executed);
      expect(readToolLog(toolLog)).toHaveLength(TURNS);
    }
  });

  it('re-runs exactly the one effect caught between running and journaling, and the idempotent tool dedupes', async () => {
    const reference = await uninterrupted();
    for (let crashAt = 0; crashAt < reference.entries.length; crashAt++) {
      const { options, executed, toolLog } = session(`window-${crashAt}`);
      const crashing = new CrashingJournal(crashAt, true);
      await expect(runDurableQuery({ ...options, journal: crashing })).rejects.toThrow(SimulatedCrash);
      const recovered = await runDurableQuery({ ...options, journal: new MemoryJournal(crashing.entries) });
      expect(recovered.items).toEqual(reference.items);
      const name = reference.entries[crashAt].name;
      const again = { model: name.startsWith('call_model:') ? 1 : 0, tool: name.startsWith('tool:') ? 1 : 0 };
      expect(executed, `crash in the window of ${name}`).toEqual({ model: reference.executed.model + again.model, tool: reference.executed.tool + again.tool });
      expect(readToolLog(toolLog)).toHaveLength(TURNS);
    }
  });
});

describe('tools that are not idempotent', () => {
  const oneCall: ModelCaller = async function* (request) {
    const answered = request.messages.some((m) => m.type === 'user' && Array.isArray(m.message.content) && m.message.content.some((b) => b.type === 'tool_result'));
    const content = answered ? [{ type: 'text' as const, text: 'charged' }] : [{ type: 'tool_use' as const, id: 'toolu_charge', name: 'Charge', input: {} }];
    const message = { type: 'assistant' as const, uuid: 'm', message: { id: 'm', role: 'assistant' as const, model: request.model, content, stop_reason: answered ? 'end_turn' : 'tool_use' } };
    yield { kind: 'event', event: { type: 'model_message', message } };
    yield { kind: 'event', event: { type: 'model_done', stopReason: message.message.stop_reason } };
  } as ModelCaller;

  function charging() {
    const calls: string[] = [];
    const charge = defineTool({ name: 'Charge', description: 'Charges a card.', inputSchema: z.object({}), call: (_input, ctx) => {
      calls.push(ctx.idempotencyKey);
      return { content: 'ok' };
    } });
    return { calls, options: { prompt: 'charge it', tools: [charge], idSeed: 'charge', deps: { callModel: oneCall } } };
  }

  it('are never run again after a crash between their start and their journaled result', async () => {
    const reference = new MemoryJournal();
    await runDurableQuery({ ...charging().options, journal: reference });
    const toolAt = reference.entries.findIndex((entry) => entry.name === 'tool:toolu_charge');
    expect(reference.entries[toolAt - 1].name).toBe('tool_start:toolu_charge');

    const first = charging();
    const crashing = new CrashingJournal(toolAt, true);
    await expect(runDurableQuery({ ...first.options, journal: crashing })).rejects.toThrow(SimulatedCrash);
    expect(first.calls).toEqual(['toolu_charge']);
    const second = charging();
    const recovered = await runDurableQuery({ ...second.options, journal: new MemoryJournal(crashing.entries) });
    expect(second.calls).toEqual([]);
    const result = recovered.items.find((item) => item.type === 'user' && Array.isArray(item.message.content) && item.message.content[0]?.type === 'tool_result');
    expect(JSON.stringify(result)).toContain(JSON.stringify(interruptedToolText('Charge')).slice(1, -1));
    expect(recovered.terminal.reason).toBe('completed');
  });
});

describe('recovery under changed code', () => {
  it('is refused with a clear error when a tool changed', async () => {
    const { options } = session('a');
    const crashing = new CrashingJournal(5, false);
    await expect(runDurableQuery({ ...options, journal: crashing })).rejects.toThrow(SimulatedCrash);
    const changed = { ...options, tools: [defineTool({ name: 'AppendLine', description: 'Appends two lines.', inputSchema: z.object({ turn: z.number() }), call: () => ({ content: '' }) })] };
    const refused = runDurableQuery({ ...changed, journal: new MemoryJournal(crashing.entries) });
    await expect(refused).rejects.toThrow(DurableCodeChangedError);
    await expect(runDurableQuery({ ...changed, journal: new MemoryJournal(crashing.entries) })).rejects.toThrow(/the code changed since it was recorded \(tools was '[0-9a-f]+', is now '[0-9a-f]+'\)/);
  });

  it('is refused when the run takes another path than the journal recorded', async () => {
    const { options } = session('b');
    const reference = new MemoryJournal();
    await runDurableQuery({ ...options, journal: reference });
    const entries = reference.entries.map((entry, i) => (i === 3 ? { ...entry, name: 'call_model:elsewhere' } : entry));
    await expect(runDurableQuery({ ...options, journal: new MemoryJournal(entries) })).rejects.toThrow(JournalDivergenceError);
  });
});

describe('the journal as a session log', () => {
  it('exports a log that replay verifies, with the same transcript, and what-if reads', async () => {
    const reference = await uninterrupted();
    const { options } = session('export');
    const file = join(dir, 'session.jsonl');
    const exported = await exportDurableSessionLog(reference.entries, options, file);
    expect(exported).toEqual({ complete: true, entries: reference.entries.length });
    const replayed = replay(file);
    for (const driverOnly of ['journal', 'idSeed', 'codeVersion']) expect(replayed.header.params).not.toHaveProperty(driverOnly);
    expect(replayed.terminal).toEqual(reference.terminal);
    expect(replayed.emitted).toEqual(reference.items.filter((item) => item.type !== 'stream_event' && item.type !== 'request_start'));
    const report = whatIf(file, { config: { limits: { maxModelCalls: 2 } } });
    expect(report.oldTerminal).toBe('completed');
    expect(report.newTerminal).toBe('max_turns');
    expect(report.divergence).not.toBeNull();
    const html = join(dir, 'view.html');
    const io = { stdout: { write: () => true, isTTY: false }, stderr: { write: () => true }, env: {}, cwd: dir };
    expect(await main(['viz', file, '--out', html], io)).toBe(0);
    expect(readFileSync(html, 'utf8')).toContain('AppendLine');
  });

  it('exports a running session up to where its journal ends', async () => {
    const reference = await uninterrupted();
    const { options } = session('partial');
    const file = join(dir, 'partial.jsonl');
    const exported = await exportDurableSessionLog(reference.entries.slice(0, 6), options, file);
    expect(exported).toEqual({ complete: false, entries: 6 });
    const replayed = replay(file);
    expect(replayed.terminal).toBeNull();
    expect(replayed.steps).toBeGreaterThan(3);
  });
});

describe('tool_use ids made unique (Extension uniqueToolUseIds) across a recovery', () => {
  // Every reply reuses one tool_use id: live, the second and later calls are renamed; a recovery must rename the
  // calls after the crash exactly as the uninterrupted run did, though the earlier replies were not executed again.
  const repeating: ModelCaller = async function* (request) {
    const turn = request.messages.filter((m) => m.type === 'assistant').length + 1;
    const content = turn > 3 ? [{ type: 'text' as const, text: 'done' }] : [{ type: 'tool_use' as const, id: 'toolu_same', name: 'Echo', input: {} }];
    const message = { type: 'assistant' as const, uuid: `m${turn}`, message: { id: `m${turn}`, role: 'assistant' as const, model: request.model, content, stop_reason: turn > 3 ? 'end_turn' : 'tool_use' } };
    yield { kind: 'event', event: { type: 'model_message', message } };
    yield { kind: 'event', event: { type: 'model_done', stopReason: message.message.stop_reason } };
  } as ModelCaller;
  const echo = defineTool({ name: 'Echo', description: 'Echoes.', inputSchema: z.object({}), idempotent: true, call: (_input, ctx) => ({ content: ctx.toolUseId }) });
  const clock = { now: () => 1_000, sleep: async () => undefined };
  const options = { prompt: 'echo thrice', tools: [echo], idSeed: 'echo', deps: { callModel: repeating, clock } };

  it('renames the same calls the same way after a crash at any position', async () => {
    const reference = new MemoryJournal();
    const uninterrupted = await runDurableQuery({ ...options, journal: reference });
    const ids = uninterrupted.items.flatMap((item) => (item.type === 'assistant' ? item.message.content.flatMap((b) => (b.type === 'tool_use' ? [b.id] : [])) : []));
    expect(ids).toEqual(['toolu_same', 'toolu_same_2', 'toolu_same_3']);
    for (let crashAt = 0; crashAt < reference.entries.length; crashAt++) {
      const crashing = new CrashingJournal(crashAt, false);
      await expect(runDurableQuery({ ...options, journal: crashing })).rejects.toThrow(SimulatedCrash);
      const recovered = await runDurableQuery({ ...options, journal: new MemoryJournal(crashing.entries) });
      expect(recovered.items, `crash at ${crashAt}`).toEqual(uninterrupted.items);
    }
  });
});
