/**
 * The scripted model of `turnloop demo`: the worked example, "fix the null pointer bug in
 * src/auth/validate.ts", as fake Messages API answers. The tools are the real built-in ones, so every tool_use
 * here must be valid for them and the Edit's `old_string` must match the sample project's file exactly.
 */
import type { FakeAnswerInput } from '../../fake-api/index.ts';

export const DEMO_PROMPT = 'fix the null pointer bug in src/auth/validate.ts';

export const DEMO_SYSTEM_PROMPT = 'You are a coding agent working in a small TypeScript project. Use the tools to find, read and fix code.';

/** The buggy line of the sample project and its fix. */
export const DEMO_BUGGY_LINE = '  if (!user!.active) return false;';
export const DEMO_FIXED_LINES = '  if (user === null || !user.active) return false;';

/** Answers of the scripted model, in order: search, read, edit, report. `eventDelayMs` paces the stream. */
export function demoModelAnswers(eventDelayMs = 0): FakeAnswerInput[] {
  const paced = eventDelayMs > 0 ? { eventDelayMs } : {};
  return [
    {
      ...paced,
      content: [
        { type: 'text', text: 'I will find where users are validated and who calls it.' },
        { type: 'tool_use', name: 'Grep', input: { pattern: 'validateUser', path: 'src' } },
        { type: 'tool_use', name: 'Glob', input: { pattern: 'src/auth/*.ts' } },
      ],
    },
    {
      ...paced,
      content: [
        { type: 'text', text: 'session.ts passes findUser(id) straight in, and findUser returns null for an unknown id. Reading the validator.' },
        { type: 'tool_use', name: 'Read', input: { file_path: 'src/auth/validate.ts' } },
      ],
    },
    {
      ...paced,
      content: [
        { type: 'text', text: 'validateUser dereferences `user` with a non-null assertion although it may be null. Guarding it.' },
        {
          type: 'tool_use',
          name: 'Edit',
          input: {
            file_path: 'src/auth/validate.ts',
            old_string: `${DEMO_BUGGY_LINE}\n  return user!.token.length > 0;`,
            new_string: `${DEMO_FIXED_LINES}\n  return user.token.length > 0;`,
          },
        },
      ],
    },
    {
      ...paced,
      content: [
        {
          type: 'text',
          text: 'Fixed: validateUser() now returns false for a null user instead of throwing, so startSession() refuses unknown ids. The non-null assertions are gone, so the compiler checks this from now on.',
        },
      ],
    },
  ];
}
