import { describe, expect, it } from 'vitest';
import { stateAt, IndexOutOfRangeError } from '../../../src/replay/time-travel.ts';
import { whatIf } from '../../../src/replay/what-if.ts';
import { loadSessionLog } from '../../../src/replay/parse-session-log.ts';
import { recordRun, toolTurns } from './fixtures.ts';

describe('time travel', () => {
  it('gives the state, the statechart state and the pending effects at any event', async () => {
    const run = await recordRun(toolTurns(2));
    const log = loadSessionLog(run.path);
    const initial = stateAt(log, 0);
    expect(initial.event).toBeNull();
    expect(initial.state.context.turnCount).toBe(1);
    const firstDone = log.events.find((line) => line.event.type === 'model_done') ?? log.events[0];
    const at = stateAt(log, firstDone.index);
    expect(at.event?.type).toBe('model_done');
    expect(at.value).toBe('runningTools');
    expect(at.pendingEffects.map((e) => e.type)).toEqual(['finish_tools']);
    // A step in the middle of a reply waits for the model call an earlier step started.
    const firstMessage = log.events.find((line) => line.event.type === 'model_message') ?? log.events[0];
    const mid = stateAt(log, firstMessage.index);
    expect(mid.value).toBe('sampling');
    expect(mid.stepEffects.map((e) => e.type)).not.toContain('call_model');
    expect(mid.pendingEffects.map((e) => e.type)).toEqual(['call_model']);
    const end = stateAt(log, at.lastIndex);
    expect(end.state.status).toBe('done');
    expect(end.value).toBe('completed');
    expect(end.pendingEffects).toEqual([]);
    expect(() => stateAt(log, at.lastIndex + 1)).toThrowError(IndexOutOfRangeError);
  });
});

describe('what-if', () => {
  it('reports the first event where a smaller maxTurns changes behaviour, without calling a model', async () => {
    const run = await recordRun(toolTurns(3));
    const report = whatIf(run.path, { params: { maxTurns: 1 } });
    expect(report.divergence).not.toBeNull();
    const d = report.divergence!;
    expect(d.event?.type).toBe('attachments_collected');
    expect(d.old.terminal).toBeNull();
    expect(d.new.terminal).toBe('max_turns');
    expect(report.oldTerminal).toBe('completed');
    expect(report.newTerminal).toBe('max_turns');
    const firstAttachments = loadSessionLog(run.path).events.find((line) => line.event.type === 'attachments_collected');
    expect(d.index).toBe(firstAttachments?.index);
  });

  it('reports no divergence when the change does not matter to this run', async () => {
    const run = await recordRun(toolTurns(2));
    const report = whatIf(run.path, { config: { limits: { maxStopHookBlocking: 3 } } });
    expect(report.divergence).toBeNull();
    expect(report.newTerminal).toBe('completed');
  });

  it('sees a config change: a model-call cap of 2', async () => {
    const run = await recordRun(toolTurns(3));
    const report = whatIf(run.path, { config: { limits: { maxModelCalls: 2 } } });
    expect(report.divergence?.new.terminal).toBe('max_turns');
  });
});
