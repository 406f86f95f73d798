/**
 * A turn that cannot start (its session log is held by another process, its prompt is malformed, the hooks sent
 * in initialize are malformed) still ends with a result, and the session goes on: before, the error ended the
 * whole session without a result for that message, while the SDK program, which keeps stdin open, waited for one
 * (the process never exited).
 */
import { rmSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { initialize, runHeadless, SDK_ARGS, tempProject, userLine, writeScript } from './headless-harness.ts';

const say = (text: string) => ({ content: [{ type: 'text' as const, text }] });

it('a turn whose session log another process holds ends with an error result, and the next turn runs', async () => {
  const cwd = tempProject();
  const script = { model: [say('first'), say('third')] };
  let lockFile = '';
  let results = 0;
  const run = await runHeadless([...SDK_ARGS, '--fake-api', writeScript(cwd, script)], {
    cwd,
    results: 3,
    opening: [initialize(), userLine('one')],
    onLine(line, send) {
      if (line.type !== 'result') return;
      results += 1;
      if (results === 1) {
        // A live process (pid 1) on this host holds the log: the lock is not stale.
        lockFile = join(cwd, '.turnloop/sessions', `${String(line.session_id)}.jsonl.lock`);
        writeFileSync(lockFile, JSON.stringify({ pid: 1, host: hostname(), since: 'now' }));
        send(userLine('two'));
      } else if (results === 2) {
        rmSync(lockFile);
        send(userLine('three'));
      }
    },
  });
  const resultLines = run.lines.filter((l) => l.type === 'result');
  expect(resultLines.map((l) => [l.subtype, l.is_error])).toEqual([
    ['success', false],
    ['error_during_execution', true],
    ['success', false],
  ]);
  expect(resultLines[1].errors.join(' ')).toContain('one writer per log');
  expect(resultLines[2].result).toBe('third');
  expect(run.code).toBe(0);
});

it('a user message whose content is not content blocks gets an error result naming it, and the next message runs', async () => {
  const cwd = tempProject();
  let results = 0;
  const run = await runHeadless([...SDK_ARGS, '--fake-api', writeScript(cwd, { model: [say('fine')] })], {
    cwd,
    results: 2,
    opening: [initialize(), userLine([null])],
    onLine(line, send) {
      if (line.type === 'result' && ++results === 1) send(userLine('now a real one'));
    },
  });
  const resultLines = run.lines.filter((l) => l.type === 'result');
  expect(resultLines.map((l) => [l.subtype, l.is_error])).toEqual([
    ['error_during_execution', true],
    ['success', false],
  ]);
  expect(resultLines[0].errors).toEqual(["a user message's content must be a string or content blocks (objects with a string type); block 0 is null"]);
  expect(resultLines[1].result).toBe('fine');
});

it('an initialize whose hooks are not a hook registry is refused with the reason, and the turn still runs', async () => {
  const cwd = tempProject();
  const run = await runHeadless([...SDK_ARGS, '--fake-api', writeScript(cwd, { model: [say('fine')] })], {
    cwd,
    opening: [initialize({ hooks: { UserPromptSubmit: 'oops' } }), userLine('hi')],
  });
  const response = run.lines.find((l) => l.type === 'control_response');
  expect(response?.response).toMatchObject({ subtype: 'error', request_id: 'init-1', error: 'initialize: hooks.UserPromptSubmit must be an array of matchers, got "oops"' });
  expect(run.lines.filter((l) => l.type === 'result').map((l) => [l.subtype, l.result])).toEqual([['success', 'fine']]);
});
