/**
 * Whether a command line asks for the headless mode: a module of its own, importing nothing, because bin/ checks it
 * before it loads anything else (the headless bundle, or the CLI's modules).
 */

/** Whether `argv` asks for the headless mode (checked before the normal subcommand dispatch). */
export function isHeadlessInvocation(argv: readonly string[]): boolean {
  const first = argv.find((arg) => arg !== '--debug');
  if (first === undefined) return false;
  return first === '-p' || first === '--print' || /^--(output-format|input-format)(=|$)/.test(first);
}
