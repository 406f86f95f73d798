/**
 * `--settings <json or path>` (the SDK's `settings` option): claude's flag-settings layer, read after the settings
 * files of `--setting-sources` and over them (settings-permissions.ts merges it last), whatever the sources are.
 * As claude 2.1.334 (probed, docs/agent-sdk-conformance.md): a value that, trimmed, opens with `{` and closes with
 * `}` is inline JSON and must parse (`Invalid JSON provided to --settings`); any other value is a file path,
 * resolved against the working directory, that must exist (`Settings file not found: <path>`). Both are bad input
 * that stops the start. A file that is not valid JSON, and any value of the wrong type, is a settings problem
 * like a settings file's: reported in the `settings_not_in_effect` warning, the inline value named as claude names
 * it (`--settings (inline JSON)`).
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { HeadlessArgsError } from './headless-args.ts';

/** What `--settings` gave: the text to read as a settings file and how problems name it. */
export interface FlagSettings {
  label: string;
  text: string;
}

/** claude's name for inline settings in its warnings. */
export const INLINE_SETTINGS_LABEL = '--settings (inline JSON)';

/** Reads `--settings`; undefined without the flag. Throws HeadlessArgsError for bad inline JSON or a missing file. */
export function readFlagSettings(value: string | undefined, cwd: string): FlagSettings | undefined {
  if (value === undefined) return undefined;
  const trimmed = value.trim();
  if (trimmed.startsWith('{') && trimmed.endsWith('}')) {
    try {
      JSON.parse(trimmed);
    } catch (error) {
      throw new HeadlessArgsError(`Invalid JSON provided to --settings (${(error as Error).message})`);
    }
    return { label: INLINE_SETTINGS_LABEL, text: trimmed };
  }
  const path = resolve(cwd, value);
  try {
    return { label: path, text: readFileSync(path, 'utf8') };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') throw new HeadlessArgsError(`Settings file not found: ${path}`);
    throw new HeadlessArgsError(`--settings: the settings file ${path} cannot be read (${code ?? (error as Error).message})`);
  }
}
