/**
 * What the recorder asks of its writer per step: a step that starts nothing outside only queues itself, and the
 * first such step after a commit tells the writer once (its schedule then covers every step queued after it until
 * the next commit), not every step. Counted through a wrapped writer; what is on disk and when is held by
 * `group-commit.test.ts`.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it, vi } from 'vitest';
import { resolveConfig } from '../../../src/config/config.ts';
import type * as LogWriterModule from '../../../src/replay/log-writer.ts';
import { foldSessionLog, replay } from '../../../src/replay/replay.ts';
import { parseSessionLogText } from '../../../src/replay/parse-session-log.ts';
import { createSessionRecorder } from '../../../src/replay/session-recorder.ts';
import { recordRun, tempLogPath, toolTurns } from './fixtures.ts';

const calls = { touch: 0, commit: 0 };

vi.mock('../../../src/replay/log-writer.ts', async (importOriginal) => {
  const original = await importOriginal<typeof LogWriterModule>();
  return {
    ...original,
    openLogWriter: (...args: Parameters<typeof original.openLogWriter>) => {
      const writer = original.openLogWriter(...args);
      return {
        ...writer,
        touch: () => {
          calls.touch += 1;
          writer.touch();
        },
        commit: () => {
          calls.commit += 1;
          writer.commit();
        },
      };
    },
  };
});

const config = resolveConfig({ sessionId: 'writer-calls' });
const startsOutsideWork = (effects: readonly { type: string }[]) => effects.some((e) => ['call_model', 'run_stop_hooks', 'terminated', 'run_tools', 'enqueue_tool'].includes(e.type));

describe('the recorder and its writer', () => {
  it('tells the writer once per stretch of queued steps, not once per step, and every line still goes out', async () => {
    const run = await recordRun(toolTurns(4));
    const steps = [...foldSessionLog(parseSessionLogText(readFileSync(run.path, 'utf8')))];
    const path = tempLogPath();
    const recorder = createSessionRecorder(path, { config });
    recorder(steps[0]);
    calls.touch = 0;
    calls.commit = 0;
    for (const step of steps.slice(1)) recorder(step);
    const quiet = steps.slice(1).filter((step) => !startsOutsideWork(step.effects)).length;
    // A stretch starts at a quiet step right after a commit (or the header): one touch each.
    const stretches = steps.slice(1).filter((step, i) => !startsOutsideWork(step.effects) && (i === 0 || startsOutsideWork(steps[i].effects))).length;
    expect(quiet).toBeGreaterThan(stretches);
    expect(calls.touch).toBe(stretches);
    recorder.close();
    // The same lines (the header's time, and so the hashes, differ), and the chain verifies.
    const lines = readFileSync(path, 'utf8').trimEnd().split('\n');
    const withoutHash = (line: string) => line.replace(/,"hash":"[0-9a-f]{16}"\}$/, '}');
    expect(lines.slice(1).map(withoutHash)).toEqual(readFileSync(run.path, 'utf8').trimEnd().split('\n').slice(1).map(withoutHash));
    expect(replay(path).steps).toBe(steps.length);
  });

  it('still writes each line as it is made to a target that is not a file', async () => {
    const run = await recordRun(toolTurns(2));
    const steps = [...foldSessionLog(parseSessionLogText(readFileSync(run.path, 'utf8')))];
    const written: string[] = [];
    const recorder = createSessionRecorder({ write: (text: string) => written.push(text) }, { config });
    for (const [i, step] of steps.entries()) {
      recorder(step);
      expect(written.join('').split('\n').filter((line) => line !== '')).toHaveLength(i + 1);
    }
    recorder.close();
  });
});
