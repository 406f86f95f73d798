/** The programs of public-programs.test.ts, written as their users write them (see public-runner.ts). */
import { publicAlwaysAllow } from './public-always-allow.ts';
import { publicCancelAbort } from './public-cancel-abort.ts';
import { publicChatInterrupt } from './public-chat-interrupt.ts';
import { publicCodeReviewSkill } from './public-code-review-skill.ts';
import { publicDeployGuard } from './public-deploy-guard.ts';
import { publicHookLogger } from './public-hook-logger.ts';
import { publicInvoiceZod } from './public-invoice-zod.ts';
import { publicMaxTurnsContinue } from './public-max-turns-continue.ts';
import { publicResearchAgents } from './public-research-agents.ts';
import { publicResumeChat } from './public-resume-chat.ts';
import type { PublicProgram } from './public-runner.ts';
import { publicSessionControls } from './public-session-controls.ts';
import { publicSharedDirs } from './public-shared-dirs.ts';
import { publicTodoMcp } from './public-todo-mcp.ts';

export const PUBLIC_PROGRAMS: readonly PublicProgram[] = [
  publicCodeReviewSkill,
  publicDeployGuard,
  publicInvoiceZod,
  publicResumeChat,
  publicChatInterrupt,
  publicResearchAgents,
  publicTodoMcp,
  publicCancelAbort,
  publicSharedDirs,
  publicMaxTurnsContinue,
  publicHookLogger,
  publicAlwaysAllow,
  publicSessionControls,
];
