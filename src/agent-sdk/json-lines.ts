/**
 * Reads JSON Lines from the SDK program's stdin: one object a line. A line that is not a JSON object is reported
 * (its number and why) and skipped, so a stray line never crashes the run and never leaves the SDK waiting.
 */
import { createInterface } from 'node:readline';
import { messageOf } from '../errors/message-of.ts';

export type JsonObject = Record<string, unknown>;

export interface JsonLineHandlers {
  onObject(value: JsonObject, lineNumber: number): void;
  onMalformed(lineNumber: number, reason: string, line: string): void;
}

/** Resolves when the stream ends (stdin closed). Blank lines are skipped. */
export async function readJsonLines(input: NodeJS.ReadableStream, handlers: JsonLineHandlers): Promise<void> {
  const lines = createInterface({ input, crlfDelay: Infinity });
  let lineNumber = 0;
  for await (const line of lines) {
    lineNumber += 1;
    if (line.trim() === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (error) {
      handlers.onMalformed(lineNumber, messageOf(error), line);
      continue;
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      handlers.onMalformed(lineNumber, 'expected a JSON object', line);
      continue;
    }
    handlers.onObject(value as JsonObject, lineNumber);
  }
}
