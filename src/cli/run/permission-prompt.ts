/**
 * The permission check of `turnloop run`: read-only tool calls are allowed; any other call is asked about on the
 * terminal (readline on stdin), one question at a time, unless `--yes` allowed everything up front.
 * End of input counts as "no".
 */
import { createInterface } from 'node:readline/promises';
import type { CanUseTool } from '../../tools/call-deps.ts';
import { clip } from '../render/message-line.ts';

export interface PromptStreams {
  input: NodeJS.ReadableStream;
  output: NodeJS.WritableStream;
}

async function askYesNo(question: string, streams: PromptStreams): Promise<boolean> {
  const rl = createInterface({ input: streams.input, output: streams.output });
  try {
    const closed = new Promise<string>((resolve) => rl.once('close', () => resolve('')));
    const answer = await Promise.race([rl.question(question), closed]);
    return /^y(es)?$/i.test(answer.trim());
  } finally {
    rl.close();
  }
}

/**
 * @example
 * query({ ..., canUseTool: createPermissionPrompt({ yes: false }) });
 */
export function createPermissionPrompt(options: {
  yes: boolean;
  streams?: PromptStreams;
  beforeAsk?: () => void;
  /** Tools allowed without asking because what they do is asked about inside (a subagent: its own tool calls). */
  askedInside?: readonly string[];
}): CanUseTool {
  let queue: Promise<unknown> = Promise.resolve();
  return async (tool, input) => {
    if (options.yes || tool.isReadOnly(input) || options.askedInside?.includes(tool.name)) return { behavior: 'allow' };
    const question = `Allow ${tool.name} ${clip(JSON.stringify(input), 200)}? [y/N] `;
    const turn = queue.then(() => {
      options.beforeAsk?.();
      return askYesNo(question, options.streams ?? { input: process.stdin, output: process.stdout });
    });
    queue = turn.catch(() => undefined);
    const allowed = await turn;
    return allowed ? { behavior: 'allow' } : { behavior: 'deny', message: `The user declined this ${tool.name} call.` };
  };
}
