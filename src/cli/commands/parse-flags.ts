/**
 * `node:util` parseArgs with bad input turned into a `UsageError` (exit code 2) that points at the command's help.
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';

type ParsedFlags<T extends NonNullable<ParseArgsConfig['options']>> = ReturnType<typeof parseArgs<{ options: T; allowPositionals: true; strict: true }>>;
import { UsageError } from '../cli-io.ts';
import { didYouMean } from '../../errors/did-you-mean.ts';
import { messageOf } from '../../errors/message-of.ts';

export function parseFlags<T extends NonNullable<ParseArgsConfig['options']>>(command: string, args: string[], options: T): ParsedFlags<T> {
  try {
    return parseArgs({ args, options, allowPositionals: true, strict: true });
  } catch (error) {
    const message = messageOf(error);
    // `--at -1`: parseArgs takes the dash for another option and says only "argument is ambiguous".
    const ambiguous = /^Option '(--?[^'\s]+)[^']*' argument is ambiguous/.exec(message)?.[1];
    if (ambiguous !== undefined) {
      const value = args[args.indexOf(ambiguous) + 1] ?? '-…';
      throw new UsageError(`${ambiguous} ${value}: a value that starts with a dash is read as an option; write ${ambiguous}=${value} (see turnloop ${command} --help)`);
    }
    const unknown = (error as { code?: string }).code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' ? /'(--?[^'=]+)/.exec(message)?.[1] : undefined;
    const hint = unknown?.startsWith('--') ? didYouMean(unknown.slice(2), Object.keys(options), (name) => `--${name}`) : '';
    const what = message.replace(/\. To specify a positional argument.*$/s, '').replace(/\.$/, '');
    throw new UsageError(`${what}${hint ? `.${hint}` : ''} (see turnloop ${command} --help)`);
  }
}

/** A positive integer flag value, or a UsageError naming the flag. */
export function positiveInteger(flag: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n <= 0) throw new UsageError(`--${flag} expects a positive integer, got '${value}'`);
  return n;
}

/** A non-negative integer flag value (0 allowed), or a UsageError naming the flag. */
export function nonNegativeInteger(flag: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (value.trim() === '' || !Number.isInteger(n) || n < 0) throw new UsageError(`--${flag} expects a whole number of 0 or more, got '${value}'`);
  return n;
}

/** A positive finite number flag value (e.g. dollars), or a UsageError naming the flag. */
export function positiveAmount(flag: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || n <= 0) throw new UsageError(`--${flag} expects a positive number, got '${value}'`);
  return n;
}
