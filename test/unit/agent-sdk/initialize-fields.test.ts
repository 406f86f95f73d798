/**
 * Options an SDK program sets that reach turnloop inside `initialize` (the SDK's `plugins`, `settings`,
 * `promptSuggestions`...) and that turnloop does not implement are named on stderr, as ignored flags are: nothing an SDK sends
 * is ignored silently (issue #38). Before, they were dropped without a word.
 */
import { expect, it } from 'vitest';
import { unreadInitializeFields } from '../../../src/agent-sdk/stream-json-driver.ts';
import { initialize, runHeadless, SDK_ARGS, tempProject, userLine, writeScript } from './headless-harness.ts';

it('names the initialize fields turnloop does not read, once, and runs the turn', async () => {
  const cwd = tempProject();
  const script = writeScript(cwd, { model: [{ content: [{ type: 'text', text: 'hi' }] }] });
  const run = await runHeadless([...SDK_ARGS, '--fake-api', script], {
    cwd,
    opening: [initialize({ plugins: [], promptSuggestions: true, systemPrompt: ['Be brief.'], agents: {} }), userLine('hello')],
  });
  expect(run.code).toBe(0);
  expect(run.stderr).toContain('ignoring initialize fields turnloop does not implement: plugins, promptSuggestions\n');
  expect(run.lines.at(-1)).toMatchObject({ type: 'result', subtype: 'success' });
});

it('the fields turnloop reads (or gets as flags too) are not named', () => {
  expect(unreadInitializeFields({ subtype: 'initialize', hooks: {}, systemPrompt: [''], appendSystemPrompt: 'x', agents: {}, jsonSchema: {}, sdkMcpServers: [], sdkMcpServerManifests: {}, skills: ['pdf'] })).toEqual([]);
  expect(unreadInitializeFields({ subtype: 'initialize', plugins: [], settings: '{}', promptSuggestions: false, title: undefined })).toEqual(['plugins', 'settings', 'promptSuggestions']);
});

it('a title is written as system/session_title_changed before the first init (as claude); a bad one is named and ignored', async () => {
  const cwd = tempProject();
  const script = writeScript(cwd, { model: [{ content: [{ type: 'text', text: 'hi' }] }] });
  const run = await runHeadless([...SDK_ARGS, '--fake-api', script], { cwd, opening: [initialize({ title: 'My chat' }), userLine('hello')] });
  const messages = run.lines.filter((l) => l.type !== 'control_response');
  expect(messages.slice(0, 2).map((l) => [l.subtype, l.title])).toEqual([['session_title_changed', 'My chat'], ['init', undefined]]);
  expect(messages[0].session_id).toBe(messages[1].session_id);
  const bad = await runHeadless([...SDK_ARGS, '--fake-api', script], { cwd: tempProject(), opening: [initialize({ title: 3 }), userLine('hello')] });
  expect(bad.stderr).toContain('initialize: title: expected a non-empty string, got 3; ignored');
  expect(bad.lines.some((l) => l.subtype === 'session_title_changed')).toBe(false);
});
