/**
 * What the step memo's tests share: a recorded 3-turn run's events, and chart paths warmed by folding them once, so
 * a fresh memo over those paths follows every step of the run (no miss).
 */
import { readFileSync } from 'node:fs';
import type { LoopConfig } from '../../src/config/config.ts';
import type { LoopEvent } from '../../src/data/events.ts';
import type { LoopParams } from '../../src/data/state.ts';
import { createChartPaths, type ChartPaths } from '../../src/reducer/macrostep-memo.ts';
import { createStepMemo, initialStateWithMemo, stepWithMemo } from '../../src/reducer/stepper.ts';
import { parseSessionLogText } from '../../src/replay/parse-session-log.ts';
import { recordRun, toolTurns } from './replay/fixtures.ts';

export async function recordedEvents(): Promise<{ params: LoopParams; config: LoopConfig; events: LoopEvent[] }> {
  const log = parseSessionLogText(readFileSync((await recordRun(toolTurns(3))).path, 'utf8'));
  return { params: log.header.params, config: log.header.config, events: log.events.map((line) => line.event) };
}

/** Chart paths that hold every path of `events`' fold, recorded by one memoized fold of them. */
export function warmedPaths(params: LoopParams, config: LoopConfig, events: readonly LoopEvent[]): ChartPaths {
  const paths = createChartPaths();
  const warm = createStepMemo(paths);
  let state = initialStateWithMemo(warm, params, config).state;
  for (const event of events) state = stepWithMemo(warm, state, event, config).state;
  return paths;
}
