/** Every CLI command, in the order `turnloop --help` lists them. Each lives in its own file. */
import type { CliCommand } from '../cli-io.ts';

export const commands: CliCommand[] = [];
