/**
 * Where a resumed session's shell was (issue #38). The main thread's Bash tells the model of every move of the shell
 * with an `# Environment update` reminder (sdk-tools.ts), so the last one in the conversation names where the shell
 * ended; the session log needs no field of its own. A resumed session's shell starts in the project again, and,
 * as claude 2.1.334 does (probed, test/agent-sdk/programs/conf-resume-cwd.ts), the first prompt after the resume
 * opens with the same reminder naming the project and where the shell was. Pure.
 */
import type { Message } from '../messages/types.ts';

const UPDATE = /# Environment update\n - Primary working directory: (.*) \(was (.*)\)\n<\/system-reminder>/g;

/** The reminder that says the shell is at `directory` again, after being at `was`. */
export function environmentUpdateReminder(directory: string, was: string): string {
  return `<system-reminder>\n# Environment update\n - Primary working directory: ${directory} (was ${was})\n</system-reminder>`;
}

/**
 * The texts that may hold a reminder turnloop wrote: Bash calls' results (sdk-tools.ts appends one) and the meta
 * prompts a resume opened with. Not a typed prompt or another tool's result (a file read back could hold the words).
 */
function reminderTexts(message: Message, bashCalls: ReadonlySet<string>): string[] {
  if (message.type !== 'user') return [];
  const { content } = message.message;
  if (typeof content === 'string') return message.isMeta ? [content] : [];
  return content.flatMap((block) => {
    if (block.type === 'text') return message.isMeta ? [block.text] : [];
    if (block.type !== 'tool_result' || !bashCalls.has(block.tool_use_id)) return [];
    if (typeof block.content === 'string') return [block.content];
    return (block.content ?? []).flatMap((part) => (part.type === 'text' ? [part.text] : []));
  });
}

/** Where the shell was when the conversation ended, by its last reminder; undefined when it never moved. */
export function lastShellDirectory(history: readonly Message[]): string | undefined {
  const bashCalls = new Set<string>();
  let last: string | undefined;
  for (const message of history) {
    if (message.type === 'assistant') {
      for (const block of message.message.content) if (block.type === 'tool_use' && block.name === 'Bash') bashCalls.add(block.id);
      continue;
    }
    for (const text of reminderTexts(message, bashCalls)) {
      for (const match of text.matchAll(UPDATE)) last = match[1];
    }
  }
  return last;
}

/** The reminder that opens the first prompt of a resumed session whose shell had left the project; else undefined. */
export function resumedShellReminder(history: readonly Message[], project: string): string | undefined {
  const was = lastShellDirectory(history);
  return was === undefined || was === project ? undefined : environmentUpdateReminder(project, was);
}
