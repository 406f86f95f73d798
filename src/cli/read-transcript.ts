/**
 * Reads a CLI input that must be a Claude Code transcript (check-claude, import-claude): any other file, even
 * well-formed JSON Lines such as a turnloop session log, is bad input (exit 2) saying what it is instead.
 */
import { notATranscript } from '../claude/recognise-transcript.ts';
import { UsageError } from './cli-io.ts';
import { readInputText } from './read-input.ts';
import { examplePath } from './examples.ts';

/** The transcript to read: the one argument, or the shipped example --example names. */
export function transcriptFile(positionals: string[], example: string | undefined): string {
  if (example !== undefined) {
    if (positionals.length > 0) throw new UsageError(`give a transcript or --example, not both (got '${positionals[0]}' and --example ${example})`);
    return examplePath('transcripts', example);
  }
  if (positionals.length !== 1) throw new UsageError('expected exactly one transcript path, or --example NAME');
  return positionals[0];
}

export function readTranscriptText(file: string, cwd: string): string {
  const text = readInputText(file, cwd, { expected: 'a Claude Code transcript (JSON Lines)', format: 'jsonl' });
  const found = notATranscript(text);
  if (found !== undefined) {
    throw new UsageError(`${file}: not a Claude Code transcript: found ${found}; expected the JSON Lines of a Claude Code session, as under ~/.claude/projects/<project>/<session>.jsonl`);
  }
  return text;
}
