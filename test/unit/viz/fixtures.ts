/**
 * Sessions for the viewer tests, made by folding scripted runs with the pure reducer (`drive()`), then written
 * as session logs: the minimal format (`formatSessionLog`) or the recorded one (`createSessionRecorder`).
 */
import type { LoopConfig } from '../../../src/config/config.ts';
import type { LoopEvent } from '../../../src/data/events.ts';
import type { LoopParams } from '../../../src/data/state.ts';
import { initialState, step } from '../../../src/reducer/step.ts';
import { createSessionRecorder } from '../../../src/replay/session-recorder.ts';
import { formatSessionLog } from '../../../src/viz/session.ts';
import { assistantText, assistantToolUse, drive, params, reply, testConfig } from '../../helpers/index.ts';

export interface ScriptedSession {
  config: LoopConfig;
  params: LoopParams;
  events: LoopEvent[];
}

/** A run that lists files with one tool call, then answers and ends `completed`. */
export function toolUsingSession(finalText = 'There are two files: a.ts and b.ts.'): ScriptedSession {
  const config = testConfig();
  const p = params('List the files, please.');
  const run = drive(p, config, {
    model: [
      reply([assistantText('Let me look.'), assistantToolUse('tu1', 'Glob', { pattern: '*.ts' })], { concurrencySafe: { tu1: true } }),
      reply(assistantText(finalText)),
    ],
    tools: { tu1: 'a.ts\nb.ts' },
  });
  if (run.terminal?.reason !== 'completed') throw new Error(`fixture run ended ${JSON.stringify(run.terminal)}`);
  return { config, params: p, events: run.steps.map((s) => s.event) };
}

/** Model and tool text full of markup that must never be interpreted by the viewer. */
export const HOSTILE_TEXT = '<script>alert(1)</script><img src=x onerror=alert(1)></script><!-- </textarea> \u2028';

export function hostileSession(): ScriptedSession {
  const config = testConfig();
  const p = params(`user says ${HOSTILE_TEXT}`);
  const run = drive(p, config, {
    model: [
      reply(assistantToolUse('tu1', 'Read', { path: HOSTILE_TEXT }), { concurrencySafe: { tu1: true } }),
      reply(assistantText(`Here: ${HOSTILE_TEXT}`)),
    ],
    tools: { tu1: `file content ${HOSTILE_TEXT}` },
  });
  return { config, params: p, events: run.steps.map((s) => s.event) };
}

export function minimalLog(session: ScriptedSession): string {
  return formatSessionLog(session);
}

/** The log `createSessionRecorder` writes for the same run (hash chain, digests and all). */
export function recordedLog(session: ScriptedSession): string {
  let text = '';
  const recorder = createSessionRecorder({ write: (t: string) => (text += t) }, { config: session.config, params: session.params });
  let { state, effects } = initialState(session.params, session.config);
  recorder({ index: 0, event: null, state, effects });
  session.events.forEach((event, i) => {
    ({ state, effects } = step(state, event, session.config));
    recorder({ index: i + 1, event, state, effects });
  });
  if (recorder.error) throw recorder.error;
  return text;
}

/**
 * A long session: `rounds` model calls, each answering with a short text and one tool call, then a final
 * answer. With the test config's context layers that is about 8 events per round (1,000 rounds ≈ 8,000).
 */
export function longSession(rounds: number): ScriptedSession {
  const config = testConfig({ limits: { maxModelCalls: rounds + 10 } } as never);
  const p = params('Refactor the module, one file at a time.');
  const model = Array.from({ length: rounds }, (_, i) =>
    reply([assistantText(`Round ${i}: reading the next file.`), assistantToolUse(`tu${i}`, 'Read', { path: `src/file${i}.ts` })], { concurrencySafe: { [`tu${i}`]: true } }),
  );
  model.push(reply(assistantText('All files are done.')));
  const tools = Object.fromEntries(Array.from({ length: rounds }, (_, i) => [`tu${i}`, `export const value${i} = ${i};`]));
  const run = drive(p, config, { model, tools }, { freeze: false, maxSteps: rounds * 12 + 50 });
  if (run.terminal?.reason !== 'completed') throw new Error(`long session ended ${JSON.stringify(run.terminal)}`);
  return { config, params: p, events: run.steps.map((s) => s.event) };
}
