/** The SDK's `systemPrompt: [""]` (a program that gives none) gets turnloop's own short prompt, as claude uses its own. */
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeAnthropicApi, type FakeApi } from '../../../src/fake-api/index.ts';
import { initializeSystemPrompt } from '../../../src/agent-sdk/stream-json-driver.ts';
import { initialize, runHeadless, SDK_ARGS, userLine } from './headless-harness.ts';

let api: FakeApi | undefined;
afterEach(async () => {
  await api?.close();
  api = undefined;
});

async function systemOf(systemPrompt: string[]) {
  api = await startFakeAnthropicApi({ model: [{ content: [{ type: 'text', text: 'ok' }] }] });
  await runHeadless([...SDK_ARGS], { env: { ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: api.baseURL }, opening: [initialize({ systemPrompt }), userLine('hi')] });
  return JSON.stringify((api.log[0].body as { system?: unknown }).system ?? null);
}

describe('the default system prompt of an SDK session', () => {
  it('a program without systemPrompt (the SDK sends [""]) gets turnloop\'s short prompt; a given one is sent as given', async () => {
    expect(await systemOf([''])).toContain('running headless for a program (through turnloop)');
    const given = await systemOf(['You review code.']);
    expect(given).toContain('You review code.');
    expect(given).not.toContain('through turnloop');
  });

  it('only a prompt with some text counts as given', () => {
    expect(initializeSystemPrompt(undefined)).toBeUndefined();
    expect(initializeSystemPrompt([''])).toBeUndefined();
    expect(initializeSystemPrompt(['  ', ''])).toBeUndefined();
    expect(initializeSystemPrompt(['', 'x'])).toEqual(['', 'x']);
  });
});
