/**
 * `initialize` fields that change what a program sees, side by side (programs/conf-initialize-fields.ts): `title`
 * is a `system/session_title_changed` message before the first `init`; `promptSuggestions` adds no message and no
 * request in this program on either engine.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { ENGINES, type EngineName } from './harness/engines.ts';
import { runProgram, type ProgramRun } from './harness/sdk-program.ts';
import { confSessionTitle } from './programs/conf-initialize-fields.ts';

describe(confSessionTitle.name, () => {
  const runs = new Map<EngineName, ProgramRun>();
  beforeAll(async () => {
    for (const engine of ENGINES) runs.set(engine, await runProgram(confSessionTitle, engine));
  });

  it('the title comes first, as session_title_changed of the session; no suggestion and one request', () => {
    for (const engine of ENGINES) {
      expect(runs.get(engine)!.error, engine).toBeUndefined();
      expect(runs.get(engine)!.observed, engine).toEqual({
        requests: 1,
        types: ['system/session_title_changed', 'system/init', 'assistant', 'result/success'],
        titles: [{ title: 'My chat', sameSession: true }],
      });
    }
  });
});
