/**
 * Every line the CLI prints goes through the redactor (built-in secret patterns plus the values of secret-named
 * environment variables), so a key that reached a message, a `--json` report or an error text is masked on the way
 * out. Commands whose stdout is markup or code (`rawStdout`) redact their data themselves; their stderr still is.
 */
import { createRedactor, secretValuesFromEnv } from '../replay/redact.ts';
import type { CliIo } from './cli-io.ts';

export function redactingIo(io: CliIo, rawStdout = false): CliIo {
  const redact = createRedactor({ secretValues: secretValuesFromEnv(io.env) });
  const wrap = (stream: CliIo['stderr']) => ({ write: (text: string) => stream.write(redact.text(text)) });
  return {
    ...io,
    stdout: rawStdout ? io.stdout : Object.assign(wrap(io.stdout), { isTTY: io.stdout.isTTY }),
    stderr: wrap(io.stderr),
  };
}
