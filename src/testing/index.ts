/**
 * Testing an embedding without a network or a key: the loopback fake Anthropic API (real SSE), in-process scripted
 * model and tools, deterministic clock and ids, message builders. Scenarios (load, simulate) are `turnloop/scenario`.
 */
export { startFakeAnthropicApi, parseFakeScript, FakeScriptError, type FakeApi, type FakeScript, type FakeScriptInput, type FakeAnswerInput } from '../fake-api/index.ts';
export { scriptedModelCaller, scriptedToolRuntime, type ScriptedReply, type ScriptedTool } from '../replay/scripted-deps.ts';
export { virtualClock, counterIds } from '../runtime/system-clock.ts';
export { messageBuilders, BUILDER_MODEL, type MessageBuilders } from './message-builders.ts';
