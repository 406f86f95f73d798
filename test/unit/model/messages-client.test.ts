/**
 * The model caller's client (src/model/messages-client.ts): the SDK's base client with its `Messages` resource
 * sends what the full `Anthropic` client sends, streamed and not, and reads the replies the same; and the headless
 * bundle, which builds on it, holds none of the SDK's other resources.
 */
import { readFileSync, existsSync } from 'node:fs';
import Anthropic from '@anthropic-ai/sdk';
import { describe, expect, it } from 'vitest';
import { createMessagesClient } from '../../../src/model/messages-client.ts';
import { fakeApi } from './helpers.ts';

const SCRIPT = {
  model: [
    { id: 'msg_1', content: [{ type: 'text' as const, text: 'streamed' }] },
    { id: 'msg_2', content: [{ type: 'text' as const, text: 'whole' }] },
  ],
};

/** What one client sends and reads for a streamed request, then a non-streamed one. */
async function exchange(make: (baseURL: string) => Pick<Anthropic, 'messages'>) {
  const api = await fakeApi(SCRIPT);
  try {
    const client = make(api.baseURL);
    const request = { model: 'claude-sonnet-4-6', max_tokens: 64, messages: [{ role: 'user' as const, content: 'hi' }] };
    const events: string[] = [];
    for await (const event of await client.messages.create({ ...request, stream: true }, { headers: { 'x-test': 'a' } })) events.push(event.type);
    const whole = await client.messages.create(request);
    // Every header but `host` (each exchange has its own fake API, on its own port).
    const sent = api.log.map(({ path, headers: { host, ...headers }, body }) => ({ path, host: typeof host, headers, body }));
    return { events, text: whole.content, sent };
  } finally {
    await api.close();
  }
}

describe('createMessagesClient', () => {
  it('sends and reads what the full Anthropic client does', async () => {
    const options = (baseURL: string) => ({ apiKey: 'sk-ant-test', baseURL, maxRetries: 0 });
    const full = await exchange((baseURL) => new Anthropic(options(baseURL)));
    const ours = await exchange((baseURL) => createMessagesClient(options(baseURL)));
    expect(full.events).toContain('message_stop');
    expect(full.text).toEqual([{ type: 'text', text: 'whole' }]);
    expect(ours).toEqual(full);
  });

  it('the headless bundle holds the Messages resource and none of the others', () => {
    const bundle = new URL('../../../dist/cli/headless-bundle.cjs', import.meta.url);
    expect(existsSync(bundle), 'run `npm run build` (npm test does it)').toBe(true);
    const text = readFileSync(bundle, 'latin1');
    expect(text).toContain('/v1/messages/count_tokens');
    // The paths the models, skills and organization resources request: the full client's bundle had them.
    expect(['/v1/models', '/v1/skills', '/v1/organizations'].filter((path) => text.includes(`"${path}`))).toEqual([]);
  });
});
