/**
 * The bench's grid: the sizes every system runs at and the systems, in the order the tables show them. Shared by
 * `run.ts` (the interleaved rounds) and `first-run.ts` (one run in a fresh process per cell).
 */
import { aiSdkSystem } from './systems/ai-sdk.ts';
import { floorSystem } from './systems/floor.ts';
import { langGraphSystem } from './systems/langgraph.ts';
import { openAiAgentsSystem } from './systems/openai-agents.ts';
import { turnloopFoldSystem, turnloopQuerySystem, turnloopRecordingSystem } from './systems/turnloop.ts';
import type { RunSpec, System } from './workload.ts';

export interface Size extends RunSpec {
  id: string;
  rounds: number;
}

export const SIZES: Size[] = [
  { id: 'N=10', turns: 10, history: 0, rounds: 15 },
  { id: 'N=100', turns: 100, history: 0, rounds: 5 },
  { id: 'N=1000', turns: 1_000, history: 0, rounds: 3 },
  { id: 'H=10', turns: 10, history: 10, rounds: 15 },
  { id: 'H=1000', turns: 10, history: 1_000, rounds: 15 },
  { id: 'H=10000', turns: 10, history: 10_000, rounds: 15 },
];

export const SYSTEMS: System[] = [
  floorSystem,
  turnloopQuerySystem,
  turnloopRecordingSystem,
  turnloopFoldSystem,
  aiSdkSystem,
  langGraphSystem,
  openAiAgentsSystem,
];
