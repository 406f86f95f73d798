/**
 * Replay throughput and log growth, measured on one recorded session of the workload:
 * - events per second folding the first 10,000 events with `step()` (mitata `measure`, median over samples), and
 *   for `replay()` of the same log text (parse, zod validation, hash-chain verification, fold); and, to show where
 *   replay's time goes, for parsing alone (`parseSessionLogText`: JSON and zod) and for `replay()` without
 *   verification (`verify: false`: parse and fold, no hashing);
 * - bytes of log per turn in windows early, middle and late in the session (must not grow with the session).
 */
import { measure } from 'mitata';
import { parseSessionLogText } from '../dist/replay/parse-session-log.js';
import { replay } from '../dist/replay/replay.js';
import { foldEvents, recordSession, type RecordedSession } from './systems/turnloop.ts';
import { TurnProbe } from './workload.ts';

export const REPLAY_EVENTS = 10_000;
/** Tool turns of the recorded session: at 7 event lines per turn, a little over 10,000 events. */
const RECORDED_TURNS = 1_430;

export interface ReplayReport {
  events: number;
  /** `step()` fold, events per second: median, and the slowest and fastest sample. */
  foldRate: { median: number; min: number; max: number };
  /** `replay()` of the log text, events per second. */
  replayRate: { median: number; min: number; max: number };
  /** `parseSessionLogText` alone, and `replay()` with `verify: false`, events per second. */
  parseRate: { median: number; min: number; max: number };
  unverifiedRate: { median: number; min: number; max: number };
  /**
   * The same four, as events per second of this process's CPU time (user + system, the collector's threads
   * included), median of `CPU_ROUNDS` calls each: on a shared machine wall time also counts the time other
   * processes held the cores, CPU time only the work.
   */
  cpuRates: { fold: number; replay: number; parse: number; unverified: number };
  headerBytes: number;
  /** Mean bytes per turn in turn windows, e.g. turns 1-100. */
  bytesPerTurn: Array<{ from: number; to: number; bytes: number }>;
  linesPerTurn: number;
}

function prefix(session: RecordedSession, events: number): RecordedSession {
  return { ...session, events: session.events.slice(0, events), lineBytes: session.lineBytes.slice(0, events) };
}

/**
 * The log cut after its last commit group that ends within the first `events` event lines (a cut inside a group
 * would leave lines no hash covers, which the parser drops), and how many events that keeps.
 */
export function prefixText(text: string, events: number): { text: string; events: number } {
  let end = 0;
  let kept = { end: 0, events: 0 };
  for (let line = 0; line <= events; line++) {
    const next = text.indexOf('\n', end) + 1;
    if (line > 0 && text.startsWith('"hash":"', next - 27)) kept = { end: next, events: line };
    end = next;
  }
  return { text: text.slice(0, kept.end), events: kept.events };
}

const CPU_ROUNDS = 15;

/** Events per CPU second of `work`: the median over `CPU_ROUNDS` calls, after two unmeasured ones. */
function cpuRateOf(work: () => unknown, events: number): number {
  const seconds: number[] = [];
  for (let i = 0; i < CPU_ROUNDS + 2; i++) {
    const before = process.cpuUsage();
    work();
    const used = process.cpuUsage(before);
    if (i >= 2) seconds.push((used.user + used.system) / 1e6);
  }
  seconds.sort((a, b) => a - b);
  return events / seconds[Math.floor(seconds.length / 2)];
}

function ratesOf(stats: { p50: number; min: number; max: number }, events: number) {
  return { median: events / (stats.p50 / 1e9), min: events / (stats.max / 1e9), max: events / (stats.min / 1e9) };
}

export async function measureReplay(): Promise<ReplayReport> {
  const session = await recordSession({ turns: RECORDED_TURNS, history: 0 }, new TurnProbe());
  if (session.events.length < REPLAY_EVENTS) throw new Error(`recorded only ${session.events.length} events`);
  const { text, events } = prefixText(session.text, REPLAY_EVENTS);
  if (replay({ text }).steps !== events + 1) throw new Error('the replayed prefix does not hold the events counted');
  const folded = prefix(session, events);
  const options = { min_samples: 5, max_samples: 20, min_cpu_time: 5e8, warmup_samples: 1 };
  const foldStats = await measure(() => foldEvents(folded, () => undefined), options);
  const replayStats = await measure(() => replay({ text }), options);
  const parseStats = await measure(() => parseSessionLogText(text), options);
  const unverifiedStats = await measure(() => replay({ text }, { verify: false }), options);
  const cpuRates = {
    fold: cpuRateOf(() => foldEvents(folded, () => undefined), events),
    replay: cpuRateOf(() => replay({ text }), events),
    parse: cpuRateOf(() => parseSessionLogText(text), events),
    unverified: cpuRateOf(() => replay({ text }, { verify: false }), events),
  };

  const linesPerTurn = Math.round(session.events.length / RECORDED_TURNS);
  const windows: Array<[number, number]> = [[1, 100], [651, 750], [1_301, 1_400]];
  const bytesPerTurn = windows.map(([from, to]) => {
    const lines = session.lineBytes.slice((from - 1) * linesPerTurn, to * linesPerTurn);
    return { from, to, bytes: lines.reduce((a, b) => a + b, 0) / (to - from + 1) };
  });
  return {
    events,
    foldRate: ratesOf(foldStats, events),
    replayRate: ratesOf(replayStats, events),
    parseRate: ratesOf(parseStats, events),
    unverifiedRate: ratesOf(unverifiedStats, events),
    cpuRates,
    headerBytes: session.headerBytes,
    bytesPerTurn,
    linesPerTurn,
  };
}
