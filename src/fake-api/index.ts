/** The loopback fake Anthropic Messages API: server, script schema and the SSE encoder. */
export { startFakeAnthropicApi, type FakeApi, type FakeQueue, type FakeRequestRecord } from './server.ts';
export {
  fakeScriptSchema,
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
export { estimateInputTokens, estimateOutputTokens } from './estimate-usage.ts';
