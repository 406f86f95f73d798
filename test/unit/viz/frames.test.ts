import { describe, expect, it } from 'vitest';
import { buildFrames } from '../../../src/viz/viewer/session-model.ts';
import { buildChart } from '../../../src/viz/graph.ts';
import { parseSessionLog } from '../../../src/viz/session.ts';
import { SessionLogParseError } from '../../../src/replay/errors.ts';
import { assistantText, drive, params, reply, testConfig } from '../../helpers/index.ts';
import { minimalLog, recordedLog, toolUsingSession } from './fixtures.ts';

const chart = buildChart();
const transitionById = new Map(chart.transitions.map((t) => [t.id, t]));

describe('viewer frames', () => {
  const session = toolUsingSession();
  const frames = buildFrames(session);

  it('has the initial state and one frame per event, ending completed', () => {
    expect(frames).toHaveLength(session.events.length + 1);
    expect(frames[0]!.event).toBeNull();
    expect(frames.at(-1)).toMatchObject({ status: 'done', terminal: 'completed', state: 'completed' });
  });

  it('traces transitions that end where step() says the machine is', () => {
    for (const frame of frames.slice(1)) {
      const targeted = frame.transitions.map((id) => transitionById.get(id)!).filter((t) => t.target !== null);
      const last = targeted.at(-1);
      if (last) expect(frame.state === last.target || frame.state.startsWith(`${last.target}.`), `${frame.index}`).toBe(true);
      expect(transitionById.get(frame.transitions[0]!)?.event, `${frame.index}`).toBe(frame.event!.type);
    }
  });

  it('shows the tool round: the model call, the tools, then next_turn', () => {
    const toolsFinished = frames.find((f) => f.event?.type === 'tools_finished')!;
    expect(toolsFinished.state).toBe('collectingAttachments');
    const nextTurn = frames.find((f) => f.transitions.some((id) => transitionById.get(id)?.continue === 'next_turn'))!;
    expect(nextTurn.counters.turnCount).toBe(2);
    expect(nextTurn.continueReason).toBe('next_turn');
  });

  it('tracks pending effects until their answer arrives', () => {
    const called = frames.find((f) => f.effects.some((e) => e.type === 'call_model'))!;
    expect(called.pending.map((e) => e.type)).toEqual(['call_model']);
    const done = frames.find((f) => f.index > called.index && f.event?.type === 'model_done')!;
    expect(done.pending.map((e) => e.type)).not.toContain('call_model');
    expect(frames.at(-1)!.pending).toEqual([]);
  });

  it('collects emitted messages as plain text, tool calls included', () => {
    const emitted = frames.flatMap((f) => f.emitted);
    expect(emitted.map((m) => m.text)).toEqual(expect.arrayContaining(['Let me look.', 'There are two files: a.ts and b.ts.']));
    expect(emitted.find((m) => m.tag === 'tool_use')?.text).toContain('Glob({"pattern":"*.ts"})');
    expect(emitted.find((m) => m.tag === 'tool_result')?.text).toContain('a.ts\nb.ts');
  });

  it('reports counters against the thresholds of the current model', () => {
    const { counters } = frames.at(-1)!;
    expect(counters).toMatchObject({ modelCalls: 2, maxOutputTokensRecoveryCount: 0, autocompactFailures: 0 });
    expect(counters.autocompactThreshold).toBeLessThan(counters.blockingLimit);
    expect(counters.tokens).toBeGreaterThan(0);
  });

  it('traces a stop-hook continuation through the exit ladder', () => {
    const config = testConfig();
    const p = params('hi');
    const run = drive(p, config, { model: [reply(assistantText('one')), reply(assistantText('two'))], stopHooks: [{ blockingErrors: ['fix the tests'] }, {}] });
    const hookFrames = buildFrames({ config, params: p, events: run.steps.map((s) => s.event) });
    const blocking = hookFrames.find((f) => f.continueReason === 'stop_hook_blocking')!;
    expect(blocking.transitions.map((id) => transitionById.get(id)!.continue).filter(Boolean)).toEqual(['stop_hook_blocking']);
  });
});

describe('reading session logs', () => {
  const session = toolUsingSession();

  it('reads the minimal format', () => {
    const parsed = parseSessionLog(minimalLog(session));
    expect(parsed.events).toEqual(session.events);
    expect(parsed.config).toEqual(session.config);
  });

  it('reads what the session recorder writes with replay\'s parser, to the same frames', () => {
    const recorded = parseSessionLog(recordedLog(session));
    expect(recorded.recorded?.events).toHaveLength(session.events.length);
    expect(recorded.events).toEqual(session.events);
    const fromRecorded = buildFrames(recorded);
    const fromMinimal = buildFrames(parseSessionLog(minimalLog(session)));
    expect(fromRecorded.map((f) => [f.state, f.transitions])).toEqual(fromMinimal.map((f) => [f.state, f.transitions]));
  });

  it('names the line of a bad log', () => {
    expect(() => parseSessionLog('')).toThrow(SessionLogParseError);
    expect(() => parseSessionLog('{"kind":"event"}')).toThrow(/<log>:1: expected kind "header"/);
    const log = minimalLog(session).split('\n');
    log[2] = '{"kind":"event","index":2,"event":{"type":"nope"}}';
    expect(() => parseSessionLog(log.join('\n'))).toThrow(/<log>:3: /);
  });
});
