/**
 * Names from the OpenTelemetry GenAI semantic conventions (development status) that turnloop's spans carry, and
 * turnloop's own attributes (prefixed `turnloop.`) for what the conventions have no name for.
 */
export const GEN_AI = {
  operationName: 'gen_ai.operation.name',
  providerName: 'gen_ai.provider.name',
  agentName: 'gen_ai.agent.name',
  conversationId: 'gen_ai.conversation.id',
  requestModel: 'gen_ai.request.model',
  requestMaxTokens: 'gen_ai.request.max_tokens',
  responseModel: 'gen_ai.response.model',
  responseId: 'gen_ai.response.id',
  finishReasons: 'gen_ai.response.finish_reasons',
  inputTokens: 'gen_ai.usage.input_tokens',
  outputTokens: 'gen_ai.usage.output_tokens',
  cacheReadTokens: 'gen_ai.usage.cache_read.input_tokens',
  cacheCreationTokens: 'gen_ai.usage.cache_creation.input_tokens',
  toolName: 'gen_ai.tool.name',
  toolCallId: 'gen_ai.tool.call.id',
  toolType: 'gen_ai.tool.type',
  toolArguments: 'gen_ai.tool.call.arguments',
  toolResult: 'gen_ai.tool.call.result',
  inputMessages: 'gen_ai.input.messages',
  outputMessages: 'gen_ai.output.messages',
  systemInstructions: 'gen_ai.system_instructions',
  errorType: 'error.type',
} as const;

export const TURNLOOP = {
  querySource: 'turnloop.query_source',
  modelCall: 'turnloop.model_call',
  turn: 'turnloop.turn',
  stepIndex: 'turnloop.step.index',
  event: 'turnloop.event',
  stateFrom: 'turnloop.state.from',
  stateTo: 'turnloop.state.to',
  continueReason: 'turnloop.continue.reason',
  terminalReason: 'turnloop.terminal.reason',
  terminalMessage: 'turnloop.terminal.message',
  compactionKind: 'turnloop.compaction.kind',
  compactionTrigger: 'turnloop.compaction.trigger',
  tokensBefore: 'turnloop.compaction.tokens_before',
  tokensAfter: 'turnloop.compaction.tokens_after',
} as const;

export const OPERATION = { invokeAgent: 'invoke_agent', chat: 'chat', executeTool: 'execute_tool' } as const;

export const PROVIDER_ANTHROPIC = 'anthropic';
