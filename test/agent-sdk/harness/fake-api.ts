/**
 * The repository's loopback fake Anthropic API, taken from the source (so a change under src/fake-api/ is tested
 * without a rebuild). Both executables of a case talk to one instance of it, with one script.
 */
export { startFakeAnthropicApi, type FakeApi, type FakeAnswerInput, type FakeScriptInput } from '../../../src/fake-api/index.ts';
