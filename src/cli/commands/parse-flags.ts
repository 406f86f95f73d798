/**
 * `node:util` parseArgs with bad input turned into a `UsageError` (exit code 2) that points at the command's help.
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';

type ParsedFlags<T extends NonNullable<ParseArgsConfig['options']>> = ReturnType<typeof parseArgs<{ options: T; allowPositionals: true; strict: true }>>;
import { UsageError } from '../cli-io.ts';

export function parseFlags<T extends NonNullable<ParseArgsConfig['options']>>(command: string, args: string[], options: T): ParsedFlags<T> {
  try {
    return parseArgs({ args, options, allowPositionals: true, strict: true });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new UsageError(`${message.replace(/\. To specify a positional argument.*$/s, '')} (see turnloop ${command} --help)`);
  }
}

/** A positive integer flag value, or a UsageError naming the flag. */
export function positiveInteger(flag: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n <= 0) throw new UsageError(`--${flag} expects a positive integer, got '${value}'`);
  return n;
}
