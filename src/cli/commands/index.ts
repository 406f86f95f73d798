/**
 * Every CLI command, in the order `turnloop --help` lists them. Each lives in its own file and is imported only
 * when it runs (or shows its help), so that `turnloop --help` loads none of the engine.
 */
import type { CliCommand } from '../cli-io.ts';

export interface CommandEntry {
  name: string;
  /** One line for the command list. */
  summary: string;
  load(): Promise<CliCommand>;
}

export const commands: CommandEntry[] = [
  { name: 'demo', summary: 'Watch the loop fix a bug in a sample project (offline, scripted model, real file tools)', load: async () => (await import('./demo.ts')).demoCommand },
  { name: 'simulate', summary: 'Run one loop against a scripted scenario (deterministic; fake API, real SDK)', load: async () => (await import('./simulate.ts')).simulateCommand },
  { name: 'run', summary: 'A live run against the Anthropic API (ANTHROPIC_API_KEY) with file tools in --cwd', load: async () => (await import('./run.ts')).runCommand },
  { name: 'bounds', summary: 'Upper bounds on model calls, tokens and cost under a config, with a witness scenario', load: async () => (await import('./bounds.ts')).boundsCommand },
  { name: 'explore', summary: 'Visit every reachable state of the loop under a config and check its invariants', load: async () => (await import('./explore.ts')).exploreCommand },
  { name: 'export', summary: 'Export the loop statechart as JSON (XState/Stately), Mermaid, SCXML or DOT', load: async () => (await import('./export.ts')).exportCommand },
  { name: 'viz', summary: 'Draw the statechart as one self-contained HTML page, with a session timeline', load: async () => (await import('./viz.ts')).vizCommand },
  { name: 'replay', summary: 'Replay a session log (verify, --at N time travel, --config what-if)', load: async () => (await import('./replay.ts')).replayCommand },
  { name: 'sign', summary: 'Sign a session log (HMAC or Ed25519) for replay --verify-key', load: async () => (await import('./sign.ts')).signCommand },
  { name: 'resume', summary: 'Continue a crashed or paused run from the end of its session log', load: async () => (await import('./resume.ts')).resumeCommand },
  { name: 'import-claude', summary: 'Turn a Claude Code transcript into one simulate scenario per loop run', load: async () => (await import('./import-claude.ts')).importClaudeCommand },
  { name: 'check-claude', summary: 'Check that the engine reproduces every run of a Claude Code transcript', load: async () => (await import('./check-claude.ts')).checkClaudeCommand },
  { name: 'sessions', summary: 'List the Claude Code sessions on this machine (and turnloop logs), with the line that opens each', load: async () => (await import('./sessions.ts')).sessionsCommand },
  { name: 'examples', summary: 'List the shipped example scenarios and transcripts, with their paths', load: async () => (await import('./examples.ts')).examplesCommand },
  { name: 'snapshot', summary: "Make the headless mode's start-up snapshot for this Node (a faster Agent SDK start)", load: async () => (await import('./snapshot.ts')).snapshotCommand },
  { name: 'durable-demo', summary: 'A session survives its worker being SIGKILLed (DBOS + Postgres)', load: async () => (await import('./durable-demo.ts')).durableDemoCommand },
];
