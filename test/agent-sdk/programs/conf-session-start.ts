/**
 * SessionStart hooks from a settings file (issue #38): three command hooks (plain stdout, a JSON answer with
 * `additionalContext` and a `systemMessage`, one that exits 1) and one matched on `resume` that exits 2, a program
 * SessionStart callback beside them, then a resume of the session. Observed: each hook's stdin, what reaches the
 * first request and the resumed one, and whether the program's callback was called.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { query, type HookCallback } from '@anthropic-ai/claude-agent-sdk';
import type { SdkProgram } from '../harness/sdk-program.ts';
import { text } from './script-parts.ts';

/** A hook script: keeps its stdin (one line per run) and answers with `answer`. */
const hookScript = (name: string, answer: string) => `#!/bin/sh
cat >> ${name}.stdin
${answer}
`;

const HOOKS: Record<string, string> = {
  plain: 'echo "plain context"',
  json: `echo '{"hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":"json context"},"systemMessage":"shown to the user"}'`,
  failing: 'echo "not shown"; echo "failed" >&2; exit 1',
  resumeOnly: 'echo "resume blocked" >&2; exit 2',
};

type Json = Record<string, unknown>;
type Blocks = Array<{ role: string; content: string | Array<{ type: string; text?: string }> }>;

/** The text blocks of a request's messages that carry a SessionStart hook's words. */
function sessionStartTexts(messages: Blocks): string[] {
  return messages.flatMap((m) => (typeof m.content === 'string' ? [m.content] : m.content.flatMap((b) => (b.type === 'text' && b.text ? [b.text] : [])))).filter((t) => t.includes('SessionStart') || t.includes('context') || t.includes('resume blocked') || t.includes('not shown'));
}

export const confSessionStart: SdkProgram = {
  name: 'conf: SessionStart command hooks from the project settings',
  script: () => ({ model: [text('Hello.'), text('Again.')] }),
  async run({ options, dirs, observed, api }, seen) {
    for (const [name, answer] of Object.entries(HOOKS)) writeFileSync(join(dirs.cwd, `${name}.sh`), hookScript(name, answer), { mode: 0o755 });
    mkdirSync(join(dirs.cwd, '.claude'), { recursive: true });
    const command = (name: string) => ({ type: 'command', command: `./${name}.sh` });
    writeFileSync(join(dirs.cwd, '.claude', 'settings.json'), JSON.stringify({ hooks: { SessionStart: [{ hooks: [command('plain'), command('json'), command('failing')] }, { matcher: 'resume', hooks: [command('resumeOnly')] }] } }));
    let callbacks = 0;
    const callback: HookCallback = async () => {
      callbacks += 1;
      return { hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext: 'callback context' } };
    };
    const hooks = { SessionStart: [{ hooks: [callback] }] };
    let sessionId = '';
    for await (const message of query({ prompt: 'Hello?', options: { ...options, settingSources: ['project'], hooks } })) {
      seen.push(message);
      if (message.type === 'system' && message.subtype === 'init') sessionId = message.session_id;
    }
    const firstRequests = api.log.length;
    for await (const message of query({ prompt: 'Again?', options: { ...options, settingSources: ['project'], hooks, resume: sessionId } })) seen.push(message);
    // Each hook's runs, one stdin line each: the input as the hook read it (ids and paths checked, then named).
    observed.inputs = Object.fromEntries(Object.keys(HOOKS).map((name) => {
      const file = join(dirs.cwd, `${name}.stdin`);
      const lines = existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter((l) => l !== '') : [];
      return [name, lines.map((line) => {
        const input = JSON.parse(line) as Json;
        return {
          keys: Object.keys(input).join(','),
          source: input.source,
          sessionIdIsTheSession: input.session_id === sessionId,
          cwdIsTheProject: input.cwd === dirs.cwd,
          transcriptNamesTheSession: typeof input.transcript_path === 'string' && input.transcript_path.endsWith(`${sessionId}.jsonl`),
        };
      })];
    }));
    observed.stdinEndsWithNewline = readFileSync(join(dirs.cwd, 'plain.stdin'), 'utf8').endsWith('}\n');
    const bodyOf = (i: number) => ((api.log[i]?.body as { messages?: Blocks } | undefined)?.messages ?? []);
    observed.firstRequest = sessionStartTexts(bodyOf(0));
    observed.resumedRequest = sessionStartTexts(bodyOf(firstRequests));
    observed.callbacks = callbacks;
  },
};
