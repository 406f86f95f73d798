/**
 * An SDK program of the side-by-side suite: a script for the fake API and a function that drives the SDK's
 * `query()` with the options of one engine. `runProgram` gives it a fresh fake API, working directory and config
 * directory, and returns everything it saw, including an error the SDK threw (which the suite counts as a failure
 * of the executable: the SDK must never fail inside itself on any ending).
 */
import type { Options, SDKMessage } from '@anthropic-ai/claude-agent-sdk';
import { engineOptions, makeRunDirs, type EngineName, type RunDirs } from './engines.ts';
import { startFakeAnthropicApi, type FakeApi, type FakeScriptInput } from './fake-api.ts';
import { messageShapes, type Shape } from './message-shape.ts';
import { assertLoopbackOnly } from './offline-guard.ts';

export interface ProgramContext {
  /** The engine's options (executable, env, cwd, model); spread them first into the program's own. */
  options: Options;
  dirs: RunDirs;
  api: FakeApi;
  /** Collects the executable's stderr (the SDK passes it through `options.stderr`). */
  stderr: (chunk: string) => void;
  /** What the program observed besides messages (callbacks called, files written): compared across engines. */
  observed: Record<string, unknown>;
}

export interface SdkProgram {
  name: string;
  /** The fake API's script; a function of the run's directories (tools take absolute paths). */
  script(dirs: RunDirs): FakeScriptInput;
  /** Drives the SDK; pushes every message it yields into `seen` (kept even when the program throws). */
  run(context: ProgramContext, seen: SDKMessage[]): Promise<void>;
}

export interface ProgramRun {
  engine: EngineName;
  messages: SDKMessage[];
  shapes: Shape[];
  observed: Record<string, unknown>;
  /** What the SDK threw, if it did. */
  error?: string;
  stderr: string;
  /** The fake API's log: method-independent paths and bodies, in arrival order. */
  requests: FakeApi['log'];
  /** Requests for anything but `POST /v1/messages` (answered 404). */
  unrouted: FakeApi['unrouted'];
  /** Scripted answers nobody asked for. */
  unusedAnswers: number;
  wallMs: number;
}

/** No program of the suite needs more than a few seconds; a run past this is stuck. */
export const RUN_TIMEOUT_MS = 45_000;

export async function runProgram(program: SdkProgram, engine: EngineName): Promise<ProgramRun> {
  assertLoopbackOnly();
  const dirs = makeRunDirs();
  const api = await startFakeAnthropicApi(program.script(dirs));
  const observed: Record<string, unknown> = {};
  const seen: SDKMessage[] = [];
  let stderr = '';
  const collect = (chunk: string) => {
    stderr += chunk;
  };
  // A run that hangs is stopped (and reported as timed out) instead of holding the suite.
  const abortController = new AbortController();
  const options: Options = { ...engineOptions(engine, api.baseURL, dirs), stderr: collect, abortController };
  const started = performance.now();
  let error: string | undefined;
  let timedOut = false;
  const watchdog = setTimeout(() => {
    timedOut = true;
    abortController.abort();
  }, RUN_TIMEOUT_MS);
  try {
    await program.run({ options, dirs, api, stderr: collect, observed }, seen);
  } catch (thrown) {
    error = thrown instanceof Error ? `${thrown.name}: ${thrown.message}` : String(thrown);
  } finally {
    clearTimeout(watchdog);
    await api.close();
  }
  if (timedOut) error = `timed out after ${RUN_TIMEOUT_MS} ms${error ? ` (${error})` : ''}`;
  return {
    engine,
    messages: seen,
    observed,
    shapes: messageShapes(seen),
    ...(error === undefined ? {} : { error }),
    stderr,
    requests: api.log,
    unrouted: api.unrouted,
    unusedAnswers: api.remaining(),
    wallMs: performance.now() - started,
  };
}

/** Pushes every message of a query into `seen`. */
export async function drain(messages: AsyncIterable<SDKMessage>, seen: SDKMessage[]): Promise<void> {
  for await (const message of messages) seen.push(message);
}
