/**
 * The code fingerprint of a durable run: what must be the same when a run is recovered, or the recorded journal
 * would be answered by different code (a statechart that takes another path, a tool that now means something else).
 * It is recorded in the run's first journal entry and compared on every recovery; a difference refuses the
 * recovery with `DurableCodeChangedError`, naming what changed, instead of retrying it forever.
 */
import { createHash } from 'node:crypto';
import type { ToolRuntime } from '../data/tool-runtime.ts';
import { machineHash } from '../replay/machine-hash.ts';
import { ENGINE_VERSION } from '../replay/session-log-schema.ts';
import { stableStringify } from '../replay/stable-hash.ts';
import { TurnloopError } from '../errors/turnloop-error.ts';

export interface CodeFingerprint {
  /** The statechart's structural hash (`machineHash()`). */
  machine: string;
  engineVersion: string;
  /** Hash of the tool definitions the model is sent. */
  tools: string;
  /** The caller's own version of everything else its run depends on (e.g. a git commit); '' when not given. */
  codeVersion: string;
}

export function codeFingerprint(tools: ToolRuntime, codeVersion = ''): CodeFingerprint {
  const definitions = stableStringify(tools.definitions());
  return {
    machine: machineHash(),
    engineVersion: ENGINE_VERSION,
    tools: createHash('sha256').update(definitions).digest('hex').slice(0, 16),
    codeVersion,
  };
}

export class DurableCodeChangedError extends TurnloopError {
  readonly exitCode = 2;
  constructor(
    readonly recorded: CodeFingerprint,
    readonly current: CodeFingerprint,
  ) {
    const changed = (Object.keys(current) as Array<keyof CodeFingerprint>)
      .filter((key) => recorded[key] !== current[key])
      .map((key) => `${key} was '${recorded[key]}', is now '${current[key]}'`);
    super(
      'DURABLE_CODE_CHANGED',
      `cannot recover this durable run: the code changed since it was recorded (${changed.join('; ')}). ` +
        'Recover it with the code that started it, or let it fail and start a new run.',
    );
    this.name = 'DurableCodeChangedError';
  }
}

/** Throws `DurableCodeChangedError` unless the recorded fingerprint is the current one. */
export function checkFingerprint(recorded: CodeFingerprint, current: CodeFingerprint): void {
  const same = (Object.keys(current) as Array<keyof CodeFingerprint>).every((key) => recorded[key] === current[key]);
  if (!same) throw new DurableCodeChangedError(recorded, current);
}
