/** The loopback fake Anthropic Messages API: server, script schema, the SSE encoder and the request rules. */
export { startFakeAnthropicApi, type FakeApi, type FakeApiOptions, type FakeQueue, type FakeRequestRecord } from './server.ts';
export { validateRequest, modelInfoFor, REQUEST_RULE_NAMES, type ModelTable, type Rejection, type RuleName } from './validate-request.ts';
export { createPromptCache, LOOKBACK_BLOCKS, MIN_CACHEABLE_TOKENS, type CacheUsage, type PromptCache } from './prompt-cache.ts';
export {
  fakeScriptSchema,
  fakeAnswerListSchema,
  MAX_SCRIPTED_ANSWERS,
  DEFAULT_COMPACTION_REPLY,
  REAL_ERROR_BODIES,
  fakeAnswerShapes,
  parseFakeScript,
  FakeScriptError,
  formatPath,
  type FakeScript,
  type FakeScriptInput,
  type FakeAnswer,
  type FakeAnswerInput,
  type FakeReply,
  type FakeRawSse,
  type FakeError,
  type FakeContentBlock,
} from './script-schema.ts';
export { replyToSseEvents, encodeSseEvent, type SseEvent } from './reply-to-sse.ts';
export { estimateInputTokens, estimateOutputTokens, totalInputTokens } from './estimate-usage.ts';
