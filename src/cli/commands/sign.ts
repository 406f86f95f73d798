/**
 * `turnloop sign <log.jsonl> --key KEY`: writes `<log>.sig`, a signature over every byte of the log, for logs
 * shared across a trust boundary; `turnloop replay <log> --verify-key KEY` checks it (see src/replay/sign-log.ts).
 */
import { resolve } from 'node:path';
import { descendantLogFiles } from '../../replay/child-logs.ts';
import { loadSigningKey, signLogBytes, signaturePathOf, treeBelow, type LogSignature } from '../../replay/sign-log.ts';
import { EXIT_OK, UsageError, type CliCommand, type CliIo } from '../cli-io.ts';
import { readInputText } from '../read-input.ts';
import { writeOutputFile } from '../write-output.ts';
import { parseFlags } from './parse-flags.ts';

const HELP = `Usage: turnloop sign <log.jsonl> --key KEY

Writes <log.jsonl>.sig: a signature over every byte of the log (its hash chain included), so that whoever receives
the log can check with 'turnloop replay <log> --verify-key KEY' that it comes from a holder of the key and was not
changed. The subagents' logs beside it (<log minus .jsonl>.agents/, recursively) are signed too, each in its own
<child>.jsonl.sig, since replay re-drives them with the log. KEY is a file: a PEM Ed25519 private key (verify with its public key), or any other content, taken as an
HMAC-SHA256 secret of at least 16 bytes (verify with the same file). Make an Ed25519 pair with
  openssl genpkey -algorithm ed25519 -out key.pem && openssl pkey -in key.pem -pubout -out key.pub`;

async function run(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseFlags('sign', args, { key: { type: 'string' } });
  if (positionals.length !== 1) throw new UsageError('expected exactly one session log path');
  if (values.key === undefined) throw new UsageError('--key KEY is required (see turnloop sign --help)');
  const [log] = positionals;
  // The same checks as every reader of the log, so nothing unreadable gets signed.
  const read = (file: string) => readInputText(file, io.cwd, { expected: 'a session log (JSON Lines)', format: 'jsonl' });
  const text = read(log);
  const key = loadSigningKey(resolve(io.cwd, values.key));
  // Each log's signature covers the logs of its own subtree (their paths and digests) as well as its bytes.
  const sign = (file: string, fileText: string): { signature: LogSignature; out: string } => {
    const signature = signLogBytes(Buffer.from(fileText, 'utf8'), key, treeBelow(resolve(io.cwd, file)));
    return { signature, out: writeOutputFile(signaturePathOf(file), io.cwd, `${JSON.stringify(signature)}\n`) };
  };
  const { signature, out } = sign(log, text);
  io.stderr.write(`signed ${signature.bytes} bytes (${signature.algorithm}) → ${out}\n`);
  // A tree's child logs are replayed with it, so each gets its own signature.
  for (const child of descendantLogFiles(resolve(io.cwd, log))) io.stderr.write(`signed subagent log → ${sign(child, read(child)).out}\n`);
  return EXIT_OK;
}

export const signCommand: CliCommand = {
  name: 'sign',
  help: HELP,
  run,
};
