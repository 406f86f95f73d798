/**
 * Terminal styling: ANSI colours only when the output is a TTY (and NO_COLOR is unset), plain text otherwise.
 */
import type { CliIo } from '../cli-io.ts';

export interface Style {
  bold(text: string): string;
  dim(text: string): string;
  green(text: string): string;
  red(text: string): string;
  yellow(text: string): string;
  cyan(text: string): string;
}

const plain: Style = { bold: (t) => t, dim: (t) => t, green: (t) => t, red: (t) => t, yellow: (t) => t, cyan: (t) => t };

const ansi = (open: number, close: number) => (text: string) => `\u001b[${open}m${text}\u001b[${close}m`;

const coloured: Style = { bold: ansi(1, 22), dim: ansi(2, 22), green: ansi(32, 39), red: ansi(31, 39), yellow: ansi(33, 39), cyan: ansi(36, 39) };

export function styleFor(io: CliIo): Style {
  // NO_COLOR (no-color.org): any non-empty value turns colour off.
  return io.stdout.isTTY === true && !io.env.NO_COLOR ? coloured : plain;
}
