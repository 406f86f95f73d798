/**
 * `turnloop replay <log>`: replays a session log (verifying every state hash), shows the state at an event
 * (`--at N`), or what a different config would have done (`--config`, `--params`: what-if, no model called).
 * Exit codes: 0 replayed (or what-if done), 1 divergence or version skew, 2 bad input.
 */
import { UsageError, type CliCommand, type CliIo } from '../cli-io.ts';
import { readInputText, shownPath } from '../read-input.ts';
import { parseFlags } from './parse-flags.ts';
import { whatIfOverridesOf } from './what-if-flags.ts';
import { loadSigningKey, readLogSignature, verifyLogBytes } from '../../replay/sign-log.ts';
import { replay } from '../../replay/replay.ts';
import { stateAt } from '../../replay/time-travel.ts';
import { whatIf } from '../../replay/what-if.ts';
import { stateValueString } from '../../replay/stable-hash.ts';
import { resolve } from 'node:path';

const HELP = `Usage: turnloop replay <log.jsonl> [--at N] [--json] [--config '<json>'] [--params '<json>'] [--allow-version-skew] [--verify-key KEY]

Replays a session log through the reducer and checks every recorded state hash.
  --at N                 show the state after event N (0 = initial): statechart state, pending effects
  --config '<json>'      what-if: config overrides (e.g. '{"limits":{"maxModelCalls":2}}'); reports the first
                         event where behaviour changes. No model is called.
  --params '<json>'      what-if on params (e.g. '{"maxTurns":1}')
  --json                 machine-readable output
  --allow-version-skew   replay a log recorded with a different statechart
  --verify-key KEY       first check <log>.sig (made by turnloop sign) with KEY: an HMAC secret file or a PEM
                         Ed25519 public key; a missing or wrong signature is exit 2. The hash chain alone catches
                         damage, not forgery (see docs/replay.md)`;

const FLAGS = {
  at: { type: 'string' },
  json: { type: 'boolean', default: false },
  config: { type: 'string' },
  params: { type: 'string' },
  'allow-version-skew': { type: 'boolean', default: false },
  'verify-key': { type: 'string' },
} as const;

function print(io: CliIo, json: boolean, data: unknown, text: string): void {
  io.stdout.write(json ? `${JSON.stringify(data, null, 2)}\n` : `${text}\n`);
}

async function run(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseFlags('replay', args, FLAGS);
  if (positionals.length !== 1) throw new UsageError('expected exactly one session log path');
  const [path] = positionals;
  const allowVersionSkew = values['allow-version-skew'] === true;
  const overrides = whatIfOverridesOf(values.config, values.params);
  const json = values.json === true;
  const log = { text: readInputText(path, io.cwd, { expected: 'a session log (JSON Lines)', format: 'jsonl' }), file: shownPath(path, io.cwd) };
  if (values['verify-key'] !== undefined) {
    // The bytes verified are the bytes replayed (read once).
    const signature = readLogSignature(resolve(io.cwd, path));
    verifyLogBytes(Buffer.from(log.text, 'utf8'), signature, loadSigningKey(resolve(io.cwd, values['verify-key'])), log.file);
    io.stderr.write(`signature ok: ${signature.algorithm} over ${signature.bytes} bytes\n`);
  }

  if (overrides) {
    const report = whatIf(log, overrides, { allowVersionSkew });
    const d = report.divergence;
    const text = d
      ? [
          `first divergence at event ${d.index}${d.event ? ` (${d.event.type})` : ''}:`,
          `  recorded: ${d.old.value} transition=${d.old.transition ?? '-'} effects=[${d.old.effects.join(', ')}] terminal=${d.old.terminal ?? '-'}`,
          `  what-if:  ${d.new.value} transition=${d.new.transition ?? '-'} effects=[${d.new.effects.join(', ')}] terminal=${d.new.terminal ?? '-'}`,
          `recorded run ended: ${report.oldTerminal ?? '(not ended)'}; what-if: ${report.newTerminal ?? '(would need new answers from here)'}`,
        ].join('\n')
      : `no divergence over ${report.compared} steps; both end: ${report.oldTerminal ?? '(not ended)'}`;
    print(io, json, report, text);
    return 0;
  }

  if (values.at !== undefined) {
    const index = Number(values.at);
    if (!Number.isInteger(index)) throw new UsageError(`--at expects an event index, got: ${values.at}`);
    const at = stateAt(log, index, { allowVersionSkew });
    const c = at.state.context;
    const text = [
      `event ${at.index} of ${at.lastIndex}${at.event ? ` (${at.event.type})` : ' (initial state)'}`,
      `state: ${at.value}${at.state.status === 'done' ? ` (done: ${c.terminal?.reason})` : ''}`,
      `turn ${c.turnCount}, model calls ${c.modelCalls}, messages ${c.messages.length}, transition ${c.transition?.reason ?? '-'}`,
      `effects of this step: ${at.stepEffects.map((e) => `${e.type} (${e.id})`).join(', ') || '(none)'}`,
      `waiting for: ${at.pendingEffects.map((e) => `${e.type} (${e.id})`).join(', ') || '(nothing: the run is over)'}`,
    ].join('\n');
    print(io, json, { index: at.index, lastIndex: at.lastIndex, event: at.event, value: at.value, stepEffects: at.stepEffects, pendingEffects: at.pendingEffects, state: at.state }, text);
    return 0;
  }

  const result = replay(log, { allowVersionSkew });
  const terminal = result.terminal;
  const text = [
    `replayed ${result.steps - 1} events: every state hash matches`,
    `final state: ${stateValueString(result.finalState.value)}; terminal: ${terminal ? terminal.reason : '(none: the log ends mid-run; see turnloop resume)'}`,
    `emitted messages: ${result.emitted.length}`,
    ...(result.truncated ? [`warning: line ${result.truncated.line} was incomplete (a crash while writing it) and was skipped`] : []),
  ].join('\n');
  print(io, json, { steps: result.steps, terminal, value: stateValueString(result.finalState.value), emitted: result.emitted.length, truncated: result.truncated }, text);
  return 0;
}

export const replayCommand: CliCommand = {
  name: 'replay',
  summary: 'Replay a session log (verify, --at N time travel, --config what-if)',
  help: HELP,
  run,
};
