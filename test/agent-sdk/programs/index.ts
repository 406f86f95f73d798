/** Every SDK program of the side-by-side suite, in the order the suite runs them. */
import type { SdkProgram } from '../harness/sdk-program.ts';
import { acceptEditsMode } from './accept-edits.ts';
import { agentsOption } from './agents-option.ts';
import { alwaysAllow } from './always-allow.ts';
import { apiErrorEnding } from './api-error.ts';
import { canUseToolAllowAndDeny } from './can-use-tool.ts';
import { hookEvents } from './hook-events.ts';
import { fallbackModel } from './fallback-model.ts';
import { hookStopsTurn } from './hook-stop.ts';
import { hookStopsDeniedCall } from './hook-stop-denied.ts';
import { interruptMidAnswer } from './interrupt.ts';
import { interruptDuringTool } from './interrupt-during-tool.ts';
import { maxTurnsWithToolCall } from './max-turns.ts';
import { apiRetries } from './msg-api-retry.ts';
import { maxBudgetOnToolCall } from './msg-budget.ts';
import { deniedWithoutAsking } from './msg-permission-denied.ts';
import { hiddenThinkingTokens, thinkingTokens } from './msg-thinking-tokens.ts';
import { partialMessages } from './partial-messages.ts';
import { preToolUseHookDenies } from './pre-tool-use-hook.ts';
import { promptHookBlocks } from './prompt-hook-blocks.ts';
import { resumeFinishedSession } from './resume.ts';
import { projectSkill } from './skills.ts';
import { settingsFileInvalid, settingsRuleNotString, settingsRulesLocalOnly, settingsRulesRead } from './settings-rules.ts';
import { sdkMcpServerTool } from './sdk-mcp-tool.ts';
import { stopHookStops } from './stop-hook-stops.ts';
import { streamingInputTwoTurns } from './streaming-input.ts';
import { structuredOutput } from './structured-output.ts';
import { structuredOutputRetries } from './structured-output-retries.ts';
import { structuredOutputReminder } from './structured-output-reminder.ts';
import { subagentTask } from './subagent.ts';
import { textAnswer } from './text-answer.ts';
import { twoToolCallsInOneReply } from './two-tool-calls.ts';

export const PROGRAMS: readonly SdkProgram[] = [
  textAnswer,
  canUseToolAllowAndDeny,
  acceptEditsMode,
  maxTurnsWithToolCall,
  preToolUseHookDenies,
  hookEvents,
  sdkMcpServerTool,
  apiErrorEnding,
  partialMessages,
  resumeFinishedSession,
  interruptMidAnswer,
  subagentTask,
  streamingInputTwoTurns,
  hookStopsTurn,
  hookStopsDeniedCall,
  stopHookStops,
  twoToolCallsInOneReply,
  interruptDuringTool,
  structuredOutput,
  structuredOutputRetries,
  structuredOutputReminder,
  projectSkill,
  agentsOption,
  fallbackModel,
  promptHookBlocks,
  maxBudgetOnToolCall,
  thinkingTokens,
  hiddenThinkingTokens,
  apiRetries,
  deniedWithoutAsking,
  alwaysAllow,
  settingsRulesRead,
  settingsRulesLocalOnly,
  settingsFileInvalid,
  settingsRuleNotString,
];
