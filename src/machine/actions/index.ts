/** Every action of the loop machine, by name. */
import * as continueActions from './continue-actions.ts';
import * as exitLadderActions from './exit-ladder-actions.ts';
import * as pipelineActions from './pipeline-actions.ts';
import * as samplingActions from './sampling-actions.ts';
import * as terminalActions from './terminal-actions.ts';
import * as toolActions from './tool-actions.ts';

export const actionImplementations = {
  startIteration: pipelineActions.startIteration,
  requestContextLayer: pipelineActions.requestContextLayer,
  applyContextLayer: pipelineActions.applyContextLayer,
  requestAutocompact: pipelineActions.requestAutocompact,
  applyAutocompact: pipelineActions.applyAutocompact,
  recordAutocompactFailure: pipelineActions.recordAutocompactFailure,
  emitBlockingLimitError: pipelineActions.emitBlockingLimitError,
  stopAtModelCallCap: pipelineActions.stopAtModelCallCap,
  stopAtSpendCap: pipelineActions.stopAtSpendCap,

  callModel: samplingActions.callModel,
  recordAssistantMessage: samplingActions.recordAssistantMessage,
  recordUsage: samplingActions.recordUsage,
  discardAttempt: samplingActions.discardAttempt,
  switchToFallbackModel: samplingActions.switchToFallbackModel,
  failOnModelError: samplingActions.failOnModelError,
  recordOverloadedAsApiError: samplingActions.recordOverloadedAsApiError,
  failOnImageError: samplingActions.failOnImageError,
  runPostSamplingHooks: samplingActions.runPostSamplingHooks,
  emitResolvedToolUseSummary: samplingActions.emitResolvedToolUseSummary,
  recordToolUseSummary: samplingActions.recordToolUseSummary,

  answerOrphanToolUses: toolActions.answerOrphanToolUses,
  runToolBatches: toolActions.runToolBatches,
  finishStreamingTools: toolActions.finishStreamingTools,
  recordToolResult: toolActions.recordToolResult,
  noteAbort: toolActions.noteAbort,
  emitInterruptedMessage: toolActions.emitInterruptedMessage,
  startToolUseSummary: toolActions.startToolUseSummary,
  emitToolInterruption: toolActions.emitToolInterruption,
  requestAttachments: toolActions.requestAttachments,
  appendAttachments: toolActions.appendAttachments,
  stopAtMaxTurns: toolActions.stopAtMaxTurns,

  requestCollapseDrain: exitLadderActions.requestCollapseDrain,
  requestReactiveCompact: exitLadderActions.requestReactiveCompact,
  releaseWithheld: exitLadderActions.releaseWithheld,
  runStopFailureHooks: exitLadderActions.runStopFailureHooks,
  recordApiErrorEnding: exitLadderActions.recordApiErrorEnding,
  requestStopHooks: exitLadderActions.requestStopHooks,
  preventByStopHook: exitLadderActions.preventByStopHook,
  preventByAbort: exitLadderActions.preventByAbort,
  summarizeStopHooks: exitLadderActions.summarizeStopHooks,
  stopAtStopHookCap: exitLadderActions.stopAtStopHookCap,
  completeTokenBudget: exitLadderActions.completeTokenBudget,

  continueCollapseDrainRetry: continueActions.continueCollapseDrainRetry,
  continueReactiveCompactRetry: continueActions.continueReactiveCompactRetry,
  continueMaxOutputTokensEscalate: continueActions.continueMaxOutputTokensEscalate,
  continueMaxOutputTokensRecovery: continueActions.continueMaxOutputTokensRecovery,
  continueStopHookBlocking: continueActions.continueStopHookBlocking,
  continueTokenBudget: continueActions.continueTokenBudget,
  continueNextTurn: continueActions.continueNextTurn,

  terminate: terminalActions.terminate,
};

export type ActionName = keyof typeof actionImplementations;
