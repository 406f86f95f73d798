/**
 * Group commits (docs/durable.md, "Commits per turn"): local entries ride in the next commit, a turn of one model
 * call and one tool call costs two commits, and a crash at any commit — before it, or after its work ran — still
 * recovers to the uninterrupted transcript with nothing in the world done twice that was not in flight.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { demoSessionOptions, readToolLog } from '../../../src/durable/demo-session.ts';
import { expandGroups, GroupCommitJournal } from '../../../src/durable/group-commit-journal.ts';
import { exportDurableSessionLog, MemoryJournal, runDurableQuery } from '../../../src/durable/index.ts';
import { replay } from '../../../src/replay/replay.ts';
import { CrashingJournal, SimulatedCrash } from '../../helpers/crashing-journal.ts';

const TURNS = 4;
let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'turnloop-group-commit-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function session(name: string) {
  const executed = { model: 0, tool: 0 };
  const toolLog = join(dir, `${name}.log`);
  const options = demoSessionOptions({ sessionId: 'group-test', turns: TURNS, toolLog, onPhase: (phase) => void (executed[phase] += 1) });
  return { options, executed, toolLog };
}

async function grouped() {
  const { options, executed } = session('reference');
  const steps = new MemoryJournal();
  const { items, terminal } = await runDurableQuery({ ...options, journal: new GroupCommitJournal(steps, []) });
  return { items, terminal, executed, steps: steps.entries };
}

describe('group commits', () => {
  it('commit twice per turn of one model call and one tool call, plus the stop hooks at the end', async () => {
    const reference = await grouped();
    expect(reference.terminal.reason).toBe('completed');
    // TURNS + 1 model calls, TURNS tool calls, and the stop hooks (they run the user's code), which carry what the
    // last turn held.
    expect(reference.steps.map((step) => step.name.split(':')[0])).toEqual([
      ...Array.from({ length: TURNS }, () => ['call_model', 'tool']).flat(), 'call_model', 'run_stop_hooks',
    ]);
  });

  it('commit what is still held when a run ends without a committing step (max_turns after a tool)', async () => {
    const options = { ...session('max-turns').options, maxTurns: 2 };
    const steps = new MemoryJournal();
    const { terminal, items } = await runDurableQuery({ ...options, journal: new GroupCommitJournal(steps, []) });
    expect(terminal.reason).toBe('max_turns');
    expect(steps.entries.at(-1)?.name).toBe('commit');
    const plain = new MemoryJournal();
    await runDurableQuery({ ...session('max-turns-plain').options, maxTurns: 2, journal: plain });
    expect(expandGroups(steps.entries)).toEqual(plain.entries);
    // Recovering a finished run answers everything from the steps and runs nothing.
    const again = session('max-turns-again');
    const recovered = await runDurableQuery({ ...again.options, maxTurns: 2, journal: new GroupCommitJournal(new MemoryJournal(steps.entries), steps.entries) });
    expect(recovered.items).toEqual(items);
    expect(again.executed).toEqual({ model: 0, tool: 0 });
  });

  it('store the same entries, in the same order, as a journal committing each one', async () => {
    const reference = await grouped();
    const plain = new MemoryJournal();
    await runDurableQuery({ ...session('plain').options, journal: plain });
    expect(expandGroups(reference.steps)).toEqual(plain.entries);
    const log = join(dir, 'exported.jsonl');
    expect((await exportDurableSessionLog(expandGroups(reference.steps), session('export').options, log)).complete).toBe(true);
    expect(replay(log).terminal).toEqual(reference.terminal);
  });

  for (const window of [false, true]) {
    it(`recover from a crash at every commit ${window ? 'after its work ran' : 'before its work'}`, async () => {
      const reference = await grouped();
      for (let crashAt = 0; crashAt < reference.steps.length; crashAt++) {
        const { options, executed, toolLog } = session(`crash-${window}-${crashAt}`);
        const crashing = new CrashingJournal(crashAt, window);
        await expect(runDurableQuery({ ...options, journal: new GroupCommitJournal(crashing, []) })).rejects.toThrow(SimulatedCrash);
        const recovered = await runDurableQuery({ ...options, journal: new GroupCommitJournal(new MemoryJournal(crashing.entries), crashing.entries) });
        expect(recovered.items, `crash at ${crashAt}`).toEqual(reference.items);
        expect(recovered.terminal).toEqual(reference.terminal);
        const name = reference.steps[crashAt].name;
        const again = window ? { model: name.startsWith('call_model:') ? 1 : 0, tool: name.startsWith('tool:') ? 1 : 0 } : { model: 0, tool: 0 };
        expect(executed, `crash at ${name}`).toEqual({ model: reference.executed.model + again.model, tool: reference.executed.tool + again.tool });
        expect(readToolLog(toolLog)).toHaveLength(TURNS);
      }
    });
  }
});
