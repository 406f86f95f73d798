/**
 * The fake API answers only `POST /v1/messages`; anything else a client asks (a model list, count_tokens, a HEAD)
 * is answered 404 and kept in `unrouted`, so a test can show what a client such as the real claude asked for.
 */
import { afterEach, expect, it } from 'vitest';
import { startFakeAnthropicApi, type FakeApi } from '../../src/fake-api/index.ts';

let api: FakeApi | undefined;
afterEach(async () => {
  await api?.close();
  api = undefined;
});

it('keeps every request it has no route for, in order, and takes no scripted answer for it', async () => {
  api = await startFakeAnthropicApi({ model: [{ content: [{ type: 'text', text: 'hi' }] }] });
  const models = await fetch(`${api.baseURL}/v1/models?limit=5`);
  const head = await fetch(`${api.baseURL}/v1/messages`, { method: 'HEAD' });
  const count = await fetch(`${api.baseURL}/v1/messages/count_tokens`, { method: 'POST', body: '{}' });
  expect([models.status, head.status, count.status]).toEqual([404, 404, 404]);
  expect(api.unrouted).toEqual([
    { method: 'GET', path: '/v1/models' },
    { method: 'HEAD', path: '/v1/messages' },
    { method: 'POST', path: '/v1/messages/count_tokens' },
  ]);
  expect(api.log).toEqual([]);
  expect(api.remaining()).toBe(1);
});
