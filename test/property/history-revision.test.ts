/**
 * The history revision (`ModelRequest.historyRevision`): on random runs, with context layers that edit the
 * middle of the history, compactions, fallbacks and a user context, two consecutive requests with the same
 * revision are a grown history (the older request's messages are the first messages of the newer's, the same
 * objects), and the model adapter's request building, which skips comparing what the revision vouches for,
 * gives exactly the request the full conversion gives, with prompt caching marking the last turns.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { buildApiRequest } from '../../src/model/build-request.ts';
import { createApiMessageConverter } from '../../src/model/incremental-api-messages.ts';
import type { ModelRequest } from '../../src/data/effects.ts';
import { environmentArb, withSummary, type Environment } from './arbitraries/environment.ts';
import { describeRun } from './checks.ts';
import { runEnvironment } from './fake-interpreter.ts';
import { propertyOptions } from './settings.ts';

const runArb: fc.Arbitrary<{ env: Environment; lastMessages: number }> = fc
  .record({
    env: environmentArb,
    layerEdits: fc.array(fc.boolean(), { minLength: 1, maxLength: 4 }),
    userContext: fc.boolean(),
    lastMessages: fc.integer({ min: 1, max: 4 }),
  })
  .map(({ env, layerEdits, userContext, lastMessages }) => ({
    env: withSummary({ ...env, layerEdits, params: userContext ? { ...env.params, userContext: { claudeMd: 'Run the tests.' } } : env.params }),
    lastMessages,
  }));

/** Whether `older` is the start of `newer`, compared by reference. */
function isReferencePrefix(older: ModelRequest, newer: ModelRequest): boolean {
  return older.messages.length <= newer.messages.length && older.messages.every((message, i) => newer.messages[i] === message);
}

/** What the runs covered: the property must meet both kinds of consecutive requests. */
const seen = { sameRevision: 0, bumpedNotPrefix: 0 };

describe('history revision', () => {
  test('consecutive requests with the same revision are a grown history; building with it equals the full build', () => {
    fc.assert(
      fc.property(runArb, ({ env, lastMessages }) => {
        const recording = runEnvironment(env);
        const requests = recording.modelRequests;
        const toMessages = createApiMessageConverter();
        const runToken = {};
        const promptCaching = { system: true, lastMessages, ttl: '5m' as const };
        for (const [index, request] of requests.entries()) {
          expect(request.historyRevision, 'every request of the reducer carries a revision').toBeTypeOf('number');
          if (index > 0) {
            const older = requests[index - 1];
            expect(request.historyRevision!, 'revisions never go back').toBeGreaterThanOrEqual(older.historyRevision!);
            if (request.historyRevision === older.historyRevision) {
              seen.sameRevision += 1;
              expect(isReferencePrefix(older, request), `call ${index + 1} kept the revision but is no grown history: ${describeRun(recording)}`).toBe(true);
            } else if (!isReferencePrefix(older, request)) seen.bumpedNotPrefix += 1;
          }
          const options = { querySource: 'sdk', tools: [], promptCaching };
          const incremental = buildApiRequest(request, { ...options, toMessages, runToken });
          expect(incremental, `call ${index + 1}`).toEqual(buildApiRequest(request, options));
        }
      }),
      propertyOptions<[{ env: Environment; lastMessages: number }]>(300),
    );
  });

  test('the runs above met both: requests of one revision, and a history changed other than by growing', () => {
    expect(seen.sameRevision).toBeGreaterThan(0);
    expect(seen.bumpedNotPrefix).toBeGreaterThan(0);
  });
});
