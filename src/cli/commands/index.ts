/** Every CLI command, in the order `turnloop --help` lists them. Each lives in its own file. */
import type { CliCommand } from '../cli-io.ts';
import { demoCommand } from './demo.ts';
import { runCommand } from './run.ts';
import { simulateCommand } from './simulate.ts';
import { exportCommand } from './export.ts';
import { vizCommand } from './viz.ts';
import { replayCommand } from './replay.ts';
import { resumeCommand } from './resume.ts';
import { importClaudeCommand } from './import-claude.ts';
import { checkClaudeCommand } from './check-claude.ts';
import { signCommand } from './sign.ts';
import { durableDemoCommand } from './durable-demo.ts';

export const commands: CliCommand[] = [demoCommand, simulateCommand, runCommand, exportCommand, vizCommand, replayCommand, signCommand, resumeCommand, importClaudeCommand, checkClaudeCommand, durableDemoCommand];
