/**
 * Whether a command line asks for the headless mode: a module of its own, importing nothing, because bin/ checks it
 * before it loads anything else (the headless bundle, or the CLI's modules).
 */

/** Whether `argv` asks for the headless mode (checked before the normal subcommand dispatch). */
export function isHeadlessInvocation(argv: readonly string[]): boolean {
  const first = argv.find((arg) => arg !== '--debug');
  if (first === undefined) return false;
  // `-p`, or -p in a group of short options that take no value (`-pv`, `-cp`: claude's option parser splits them).
  return /^-[chv]*p/.test(first) || first === '--print' || /^--(output-format|input-format)(=|$)/.test(first);
}
