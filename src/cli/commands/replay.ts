/**
 * `turnloop replay <log>`: replays a session log (verifying every state hash), shows the state at an event
 * (`--at N`), or what a different config would have done (`--config`, `--params`: what-if, no model called).
 * A log with subagents' logs beside it (`<log>.agents/`) is a tree: replay re-drives every child too and names a
 * divergence by its path; what-if says which children still run; `--child` picks a child run of the tree.
 * Exit codes: 0 replayed (or what-if done), 1 divergence or version skew, 2 bad input.
 */
import { UsageError, type CliCommand, type CliIo } from '../cli-io.ts';
import { readInputText, shownPath } from '../read-input.ts';
import { parseFlags } from './parse-flags.ts';
import { whatIfOverridesOf } from './what-if-flags.ts';
import { loadSigningKey, readLogSignature, treeBelow, verifyLogBytes, verifySessionLog } from '../../replay/sign-log.ts';
import { replay } from '../../replay/replay.ts';
import { stateAt } from '../../replay/time-travel.ts';
import { whatIf, type WhatIfReport } from '../../replay/what-if.ts';
import { childRunLog, whatIfTree, type ChildWhatIf, type TreeWhatIfReport } from '../../replay/what-if-tree.ts';
import { childLogDir, descendantLogFiles, replayChildren, type TreeReplayResult } from '../../replay/child-logs.ts';
import { stateValueString } from '../../replay/stable-hash.ts';
import { existsSync } from 'node:fs';
import { notATranscript } from '../../claude/recognise-transcript.ts';
import { resolve } from 'node:path';

const HELP = `Usage: turnloop replay <log.jsonl> [--at N] [--json] [--config '<json>'] [--params '<json>'] [--child IDS] [--allow-version-skew] [--verify-key KEY]

Replays a session log through the reducer and checks every recorded state hash. When subagents' logs lie beside
it (<log minus .jsonl>.agents/<toolUseId>.jsonl), every child run is replayed too (no model is called) and a
divergence is named by its path: parent event, child run, child event.
  --at N                 show the state after event N (0 = initial): statechart state, pending effects
  --config '<json>'      what-if: config overrides (e.g. '{"limits":{"maxModelCalls":2}}'); reports the first
                         event where behaviour changes. No model is called.
  --params '<json>'      what-if on params (e.g. '{"maxTurns":1}'); on a tree, also says which child runs
                         would still be started as recorded (re-driven from their logs) and which not
  --child IDS            the child run of the tree to replay, show (--at) or what-if: its tool_use ids from
                         the root, joined by / (e.g. toolu_1 or toolu_1/toolu_7)
  --json                 machine-readable output
  --allow-version-skew   replay a log recorded with a different statechart
  --verify-key KEY       first check <log>.sig (made by turnloop sign) with KEY: an HMAC secret file or a PEM
                         Ed25519 public key, and each subagent log's own .sig (turnloop sign writes them); a
                         missing or wrong signature is exit 2. The hash chain alone catches damage, not forgery
                         (see docs/replay.md)`;

const FLAGS = {
  at: { type: 'string' },
  json: { type: 'boolean', default: false },
  config: { type: 'string' },
  params: { type: 'string' },
  'allow-version-skew': { type: 'boolean', default: false },
  'verify-key': { type: 'string' },
  child: { type: 'string' },
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
  // A Claude Code transcript is not a log turnloop recorded: say what reads it rather than fail on its first line.
  if (notATranscript(log.text) === undefined) {
    throw new UsageError(`${log.file} is a Claude Code transcript, not a turnloop session log: see it with turnloop viz ${log.file} --out view.html, check the engine reproduces it with turnloop check-claude ${log.file}`);
  }
  const file = resolve(io.cwd, path);
  if (values['verify-key'] !== undefined) {
    // The bytes verified are the bytes replayed (read once).
    const signature = readLogSignature(file);
    const key = loadSigningKey(resolve(io.cwd, values['verify-key']));
    // A tree's child logs are replayed too: each must carry a valid signature of its own (turnloop sign writes them),
    // and the parent's signature must cover exactly these children (no swap, deletion or splice).
    const children = descendantLogFiles(file);
    for (const child of children) verifySessionLog(child, key);
    verifyLogBytes(Buffer.from(log.text, 'utf8'), signature, key, log.file, treeBelow(file));
    io.stderr.write(`signature ok: ${signature.algorithm} over ${signature.bytes} bytes${children.length > 0 ? `, and ${children.length} subagent log(s)` : ''}\n`);
  }

  const target = values.child === undefined ? [] : childPathOf(values.child);
  const tree = target.length > 0 || existsSync(childLogDir(file));
  // A child's log is read with the same checks as the one given.
  const source = target.length === 0 ? log : { text: readInputText(childRunLog(file, target), io.cwd, { expected: 'a session log (JSON Lines)', format: 'jsonl' }), file: shownPath(childRunLog(file, target), io.cwd) };

  if (overrides) {
    if (!tree) {
      const report = whatIf(log, overrides, { allowVersionSkew });
      print(io, json, report, whatIfText(report));
      return 0;
    }
    const report = whatIfTree(file, overrides, { target, allowVersionSkew });
    print(io, json, report, treeWhatIfText(report));
    return 0;
  }

  if (values.at !== undefined) {
    const index = Number(values.at);
    if (!Number.isInteger(index) || index < 0) throw new UsageError(`--at expects an event index (0 = the initial state, up to the log's last event), got: ${values.at}`);
    const at = stateAt(source, index, { allowVersionSkew });
    const c = at.state.context;
    const text = [
      ...(target.length > 0 ? [`child run ${target.join('/')} (${at.state.context.querySource})`] : []),
      `event ${at.index} of ${at.lastIndex}${at.event ? ` (${at.event.type})` : ' (initial state)'}`,
      `state: ${at.value}${at.state.status === 'done' ? ` (done: ${c.terminal?.reason})` : ''}`,
      `turn ${c.turnCount}, model calls ${c.modelCalls}, messages ${c.messages.length}, transition ${c.transition?.reason ?? '-'}`,
      `effects of this step: ${at.stepEffects.map((e) => `${e.type} (${e.id})`).join(', ') || '(none)'}`,
      `waiting for: ${at.pendingEffects.map((e) => `${e.type} (${e.id})`).join(', ') || '(nothing: the run is over)'}`,
    ].join('\n');
    print(io, json, { index: at.index, lastIndex: at.lastIndex, event: at.event, value: at.value, stepEffects: at.stepEffects, pendingEffects: at.pendingEffects, state: at.state }, text);
    return 0;
  }

  const result = replay(source, { allowVersionSkew });
  const children = tree ? replayChildren(childRunLog(file, target), { allowVersionSkew }) : new Map<string, TreeReplayResult>();
  const terminal = result.terminal;
  const text = [
    ...(target.length > 0 ? [`child run ${target.join('/')} (${result.header.params.querySource ?? 'sdk'})`] : []),
    `replayed ${result.steps - 1} events: every state hash matches`,
    `final state: ${stateValueString(result.finalState.value)}; terminal: ${terminal ? terminal.reason : '(none: the log ends mid-run; see turnloop resume)'}`,
    `emitted messages: ${result.emitted.length}`,
    ...(result.truncated ? [`warning: the log ends cut short: line ${result.truncated.line} and any after it were not replayed (a line left incomplete by a crash, or lines no hash covers)`] : []),
    ...childReplayLines(children, ''),
  ].join('\n');
  const data = { steps: result.steps, terminal, value: stateValueString(result.finalState.value), emitted: result.emitted.length, truncated: result.truncated };
  print(io, json, tree ? { ...data, children: childReplayJson(children) } : data, text);
  return 0;
}

/** `--child a/b`: the tool_use ids from the root. */
function childPathOf(value: string): string[] {
  const ids = value.split('/');
  if (ids.some((id) => id === '')) throw new UsageError(`--child expects tool_use ids joined by /, e.g. toolu_1 or toolu_1/toolu_7; got: ${value}`);
  return ids;
}

function childReplayLines(children: Map<string, TreeReplayResult>, indent: string): string[] {
  return [...children].flatMap(([id, child]) => [
    `${indent}child run ${id} (${child.header.params.querySource ?? 'sdk'}): replayed ${child.steps - 1} events, every state hash matches; terminal: ${child.terminal?.reason ?? '(none: its log ends mid-run)'}`,
    ...childReplayLines(child.children, `${indent}  `),
  ]);
}

interface ChildReplayJson {
  toolUseId: string;
  querySource: string | null;
  steps: number;
  terminal: TreeReplayResult['terminal'];
  children: ChildReplayJson[];
}

function childReplayJson(children: Map<string, TreeReplayResult>): ChildReplayJson[] {
  return [...children].map(([toolUseId, child]) => ({
    toolUseId,
    querySource: child.header.params.querySource ?? null,
    steps: child.steps,
    terminal: child.terminal,
    children: childReplayJson(child.children),
  }));
}

function whatIfText(report: WhatIfReport): string {
  const d = report.divergence;
  return d
    ? [
        `first divergence at event ${d.index}${d.event ? ` (${d.event.type})` : ''}:`,
        `  recorded: ${d.old.value} transition=${d.old.transition ?? '-'} effects=[${d.old.effects.join(', ')}] terminal=${d.old.terminal ?? '-'}`,
        `  what-if:  ${d.new.value} transition=${d.new.transition ?? '-'} effects=[${d.new.effects.join(', ')}] terminal=${d.new.terminal ?? '-'}`,
        `recorded run ended: ${report.oldTerminal ?? '(not ended)'}; what-if: ${report.newTerminal ?? '(would need new answers from here)'}`,
      ].join('\n')
    : `no divergence over ${report.compared} steps; both end: ${report.oldTerminal ?? '(not ended)'}`;
}

function childWhatIfLines(children: readonly ChildWhatIf[], indent: string): string[] {
  return children.flatMap((child) => [
    child.status === 'replayed'
      ? `${indent}child run ${child.toolUseId} (started at event ${child.startedAt}): started as recorded; re-driven from its log, ends ${child.terminal ?? '(not ended)'}, same answer`
      : `${indent}child run ${child.toolUseId} (started at event ${child.startedAt}): not reached; the what-if run diverges at or before the step that starts it`,
    ...childWhatIfLines(child.children, `${indent}  `),
  ]);
}

function treeWhatIfText(tree: TreeWhatIfReport): string {
  const affected = tree.parentAffected;
  return [
    `what-if on ${tree.target.length === 0 ? 'the root run' : `child run ${tree.target.join('/')}`}:`,
    whatIfText(tree.report),
    ...childWhatIfLines(tree.children, ''),
    ...(tree.target.length === 0
      ? []
      : [
          affected
            ? `its answer to the parent (parent event ${affected.parentEvent}, tool_use ${affected.toolUseId}) may change: the parent would need new answers from there`
            : 'its answer to the parent is unchanged: the parent runs as recorded',
        ]),
  ].join('\n');
}

export const replayCommand: CliCommand = {
  name: 'replay',
  help: HELP,
  run,
};
