/**
 * `import-claude` of a whole session: one scenario per main-thread run, whose agent tool (Claude Code's `Task`)
 * is scripted by the recorded replies of the subagents it started (the scenario's `agents` section, one run per
 * Task call, named by its tool_use id), so simulating that scenario runs parent and children together and the
 * parent's Task results come from the simulated children. Pure: reads nothing, decides what to write.
 *
 * Invariants:
 * - A run's agent calls are scripted as agents only when every one of them is linked (`session.ts`) to a
 *   subagent transcript of exactly one loop run that the section can script (no interrupt, no compaction).
 *   Otherwise the run keeps its agent tools as scripted tools with their recorded results, as before, and `notes`
 *   says, per call, why: never a guessed link, never a half-scripted tree.
 * - A subagent not folded into its parent's scenario (unlinked, compaction agents, or its parent run kept the tool
 *   scripted) gets scenarios of its own under `subagents/<agent>/`, as every subagent did before.
 */
import { basename, join } from 'node:path';
import type { ScenarioInput } from '../scenario/scenario-schema.ts';
import type { AssistantContentBlock } from '../messages/types.ts';
import { recordedOutcome } from './recorded-outcome.ts';
import { splitRuns, type RecordedRun } from './runs.ts';
import { agentRunScript, runToScenario, scenariosOf, type ScenarioAgentsInput } from './scenario.ts';
import { AGENT_TOOL_NAMES, type ChildTranscript, type ClaudeSession } from './session.ts';

export interface ImportedScenario {
  /** Relative path of the scenario file (`run-001.json`, `subagents/agent-x/run-001.json`). */
  path: string;
  scenario: ScenarioInput;
}

export interface SessionImport {
  scenarios: ImportedScenario[];
  /** Agent calls scripted from their recorded results instead of a subagent run, and why. */
  notes: string[];
}

const AGENT_DESCRIPTION = "Claude Code's Task tool: a subagent, scripted from the recorded subagent transcript";
const fileName = (index: number) => `run-${String(index).padStart(3, '0')}.json`;

type AgentUse = Extract<AssistantContentBlock, { type: 'tool_use' }>;

function agentUses(run: RecordedRun): AgentUse[] {
  return run.steps.flatMap((s) => (s.kind === 'reply' ? s.reply.blocks.flatMap((m) => m.message.content) : [])).filter((b): b is AgentUse => b.type === 'tool_use' && AGENT_TOOL_NAMES.includes(b.name));
}

/** The subagent's one recorded run, or why it cannot script an invocation. */
function scriptableRun(child: ChildTranscript | undefined, session: ClaudeSession, toolUseId: string): RecordedRun | string {
  if (!child) return session.notCheckable.find((n) => n.toolUseId === toolUseId)?.reason ?? 'no subagent transcript is linked to it';
  const runs = splitRuns(child.transcript);
  if (runs.length !== 1) return `its subagent transcript has ${runs.length} loop runs, a scripted invocation is one`;
  const outcome = recordedOutcome(runs[0]);
  if (outcome.interrupt) return 'its subagent was interrupted (an agent run has no abort script)';
  if (outcome.autocompactBeforeCalls.length > 0) return 'its subagent compacted (an agent run has no compaction script)';
  return runs[0];
}

/** The agents section of one main-thread run, or null with the notes saying why its agent calls stay scripted tools. */
function agentsOf(run: RecordedRun, session: ClaudeSession, notes: string[]): { agents: ScenarioAgentsInput; folded: ChildTranscript[] } | null {
  const uses = agentUses(run);
  if (uses.length === 0) return null;
  const agents: ScenarioAgentsInput = [];
  const folded: ChildTranscript[] = [];
  const problems: string[] = [];
  for (const use of uses) {
    const child = session.children.find((c) => c.toolUseId === use.id);
    const script = scriptableRun(child, session, use.id);
    if (typeof script === 'string') {
      problems.push(`${use.name} ${use.id}: ${script}`);
      continue;
    }
    let agent = agents.find((a) => a.name === use.name);
    if (!agent) agents.push((agent = { name: use.name, description: AGENT_DESCRIPTION, runs: [] }));
    agent.runs?.push(agentRunScript(script, use.id));
    folded.push(child as ChildTranscript);
  }
  if (problems.length === 0) return { agents, folded };
  for (const p of problems) notes.push(`run ${run.index}: ${p}; the run's agent calls are scripted from their recorded results`);
  return null;
}

function childDir(child: ChildTranscript): string {
  return child.format === 'subagent-file' ? basename(child.file, '.jsonl') : `sidechain-${child.startLine}`;
}

/** @example sessionScenarios(readClaudeSession('fa812bfe.jsonl')).scenarios.map((s) => s.path) // ['run-001.json', …] */
export function sessionScenarios(session: ClaudeSession): SessionImport {
  const notes: string[] = [];
  const scenarios: ImportedScenario[] = [];
  const folded = new Set<ChildTranscript>();
  for (const run of splitRuns(session.main)) {
    const section = agentsOf(run, session, notes);
    for (const child of section?.folded ?? []) folded.add(child);
    scenarios.push({ path: fileName(run.index), scenario: runToScenario(run, session.file, 'repl_main_thread', section?.agents ?? []) });
  }
  for (const child of session.children) {
    if (folded.has(child)) continue;
    for (const { fileName: name, scenario } of scenariosOf(splitRuns(child.transcript), child.file, child.querySource)) scenarios.push({ path: join('subagents', childDir(child), name), scenario });
  }
  return { scenarios, notes };
}
