/**
 * Signing session logs that cross a trust boundary. The hash chain (see `stable-hash.ts`) catches accidents: a
 * damaged or edited line no longer refolds to its recorded hash. It proves nothing about who wrote the log, since
 * anyone can recompute it. A signature can: it is made with a key only the signer holds.
 *
 * Format: a sidecar file `<log>.sig` (the log itself is unchanged, so every reader of the log format still works),
 * JSON `{ format, version, algorithm, bytes, sha256, signature }`. The signed message is
 * `turnloop-session-signature/1\n<bytes>\n<sha256 of the log's bytes>`, so the signature covers every byte of the
 * log, the hash chain included, and a log appended to after signing (a resume) no longer verifies. Version 2
 * (written now) adds `children`: the path and SHA-256 of every subagent log below the log, in the signed message
 * too, so a tree is tamper-evident as a tree: a child swapped, deleted or spliced in from another run (even with
 * its own valid signature) fails the parent's check. Version 1 is still verified, for a log with no children.
 *
 * Keys (one file, read by `loadSigningKey`): a PEM Ed25519 key (private to sign; public or private to verify), or
 * any other content, taken as an HMAC-SHA256 secret (surrounding whitespace trimmed, at least 16 bytes).
 */
import { createHash, createHmac, createPrivateKey, createPublicKey, sign, timingSafeEqual, verify, type KeyObject } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, relative, sep } from 'node:path';
import { TurnloopError } from '../errors/turnloop-error.ts';
import { descendantLogFiles } from './child-logs.ts';

export const SIGNATURE_FORMAT = 'turnloop-signature';
const SIGNED_PREFIX = 'turnloop-session-signature/1';
const SIGNED_TREE_PREFIX = 'turnloop-session-signature/2';

export type SigningKey = { kind: 'hmac'; secret: Buffer } | { kind: 'ed25519'; key: KeyObject; isPrivate: boolean };

/** One log of the tree below a signed log: its path relative to the signed log's folder, and its digest. */
export interface SignedChild {
  file: string;
  sha256: string;
}

export interface LogSignature {
  format: typeof SIGNATURE_FORMAT;
  /** 2: the signature also covers which subagent logs belong to the run (`children`); 1: the log alone. */
  version: 1 | 2;
  algorithm: 'hmac-sha256' | 'ed25519';
  bytes: number;
  sha256: string;
  /** Version 2: every log of the tree below this one (children, grandchildren, …), sorted by `file`. */
  children?: SignedChild[];
  signature: string;
}

/** A signature is missing, malformed or does not match: names the file and what was expected (CLI exit 2). */
export class SignatureError extends TurnloopError {
  readonly exitCode = 2;
  constructor(message: string) {
    super('SIGNATURE_INVALID', message);
    this.name = 'SignatureError';
  }
}

/** The sidecar path of a log's signature. */
export function signaturePathOf(logPath: string): string {
  return `${logPath}.sig`;
}

/** Reads a key file: PEM Ed25519 (private or public) or an HMAC secret. */
export function loadSigningKey(keyPath: string): SigningKey {
  let raw: Buffer;
  try {
    raw = readFileSync(keyPath);
  } catch (error) {
    throw new SignatureError(`${keyPath}: cannot read the key file (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  const text = raw.toString('utf8');
  if (text.includes('-----BEGIN')) {
    try {
      const isPrivate = text.includes('PRIVATE KEY');
      const key = isPrivate ? createPrivateKey(text) : createPublicKey(text);
      if (key.asymmetricKeyType !== 'ed25519') throw new TurnloopError('SIGNATURE_INVALID', `a ${key.asymmetricKeyType ?? 'non-Ed25519'} key`);
      return { kind: 'ed25519', key, isPrivate };
    } catch (error) {
      throw new SignatureError(`${keyPath}: expected a PEM Ed25519 key, got ${(error as Error).message}`);
    }
  }
  const secret = Buffer.from(text.trim(), 'utf8');
  if (secret.length < 16) throw new SignatureError(`${keyPath}: an HMAC secret needs at least 16 bytes, this one has ${secret.length}`);
  return { kind: 'hmac', secret };
}

const sha256Of = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/**
 * Version 1: prefix, length and digest of the log. Version 2 adds one line per log of the tree below it (`file
 * sha256`), so swapping, deleting or splicing in a subagent's log (even with its own valid signature) breaks the
 * parent's signature.
 */
function signedMessage(bytes: Buffer, children?: readonly SignedChild[]): Buffer {
  if (!children) return Buffer.from(`${SIGNED_PREFIX}\n${bytes.length}\n${sha256Of(bytes)}`, 'utf8');
  const lines = children.map((child) => `${child.file} ${child.sha256}`);
  return Buffer.from([SIGNED_TREE_PREFIX, String(bytes.length), sha256Of(bytes), ...lines].join('\n'), 'utf8');
}

/** The logs of the tree below the log at `logPath` (its subagents' logs, recursively), with their digests. */
export function treeBelow(logPath: string): SignedChild[] {
  return descendantLogFiles(logPath)
    .map((file) => ({ file: relative(dirname(logPath), file).split(sep).join('/'), sha256: sha256Of(readFileSync(file)) }))
    .sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
}

/** Signs the log's bytes; with `children` (version 2), also which subagent logs belong to it. */
export function signLogBytes(bytes: Buffer, key: SigningKey, children?: readonly SignedChild[]): LogSignature {
  const message = signedMessage(bytes, children);
  const base = {
    format: SIGNATURE_FORMAT as typeof SIGNATURE_FORMAT,
    version: (children ? 2 : 1) as 1 | 2,
    bytes: bytes.length,
    sha256: sha256Of(bytes),
    ...(children ? { children: [...children] } : {}),
  };
  if (key.kind === 'hmac') return { ...base, algorithm: 'hmac-sha256', signature: createHmac('sha256', key.secret).update(message).digest('base64') };
  if (!key.isPrivate) throw new SignatureError('signing needs the PRIVATE Ed25519 key; this is a public key');
  return { ...base, algorithm: 'ed25519', signature: sign(null, message, key.key).toString('base64') };
}

/** What differs between the subagent logs a signature covers and those found beside the log. */
function treeDifference(signed: readonly SignedChild[], found: readonly SignedChild[]): string | null {
  const foundBy = new Map(found.map((child) => [child.file, child.sha256]));
  const signedBy = new Map(signed.map((child) => [child.file, child.sha256]));
  for (const child of signed) {
    if (!foundBy.has(child.file)) return `the subagent log ${child.file} it covers is missing`;
    if (foundBy.get(child.file) !== child.sha256) return `the subagent log ${child.file} is not the one signed (swapped or changed)`;
  }
  for (const child of found) if (!signedBy.has(child.file)) return `the subagent log ${child.file} was not part of the signed run (added or spliced in)`;
  return null;
}

/**
 * Throws `SignatureError` unless `signature` is a valid signature of `bytes` under `key`. `children`: the logs of
 * the tree found below the log (`treeBelow`); a version-2 signature must cover exactly these, and a version-1
 * signature (which covers no tree) is refused when there are any.
 */
export function verifyLogBytes(bytes: Buffer, signature: LogSignature, key: SigningKey, where = 'the log', children: readonly SignedChild[] = []): void {
  const expectedAlgorithm = key.kind === 'hmac' ? 'hmac-sha256' : 'ed25519';
  if (signature.algorithm !== expectedAlgorithm) {
    throw new SignatureError(`${where}: signed with ${signature.algorithm}, but the key given is for ${expectedAlgorithm}`);
  }
  if (signature.bytes !== bytes.length) {
    throw new SignatureError(`${where}: the signature covers ${signature.bytes} bytes, the log has ${bytes.length} (changed or appended to after signing)`);
  }
  if (signature.version === 1 && children.length > 0) {
    throw new SignatureError(`${where}: the signature (version 1) does not cover the ${children.length} subagent log(s) beside it; sign the tree again with turnloop sign`);
  }
  const message = signedMessage(bytes, signature.version === 2 ? (signature.children ?? []) : undefined);
  const given = Buffer.from(signature.signature, 'base64');
  const ok =
    key.kind === 'hmac'
      ? (() => {
          const expected = createHmac('sha256', key.secret).update(message).digest();
          return given.length === expected.length && timingSafeEqual(given, expected);
        })()
      : verify(null, message, key.isPrivate ? createPublicKey(key.key) : key.key, given);
  if (!ok) throw new SignatureError(`${where}: the signature does not match (the log was changed, or signed with another key)`);
  const difference = signature.version === 2 ? treeDifference(signature.children ?? [], children) : null;
  if (difference) throw new SignatureError(`${where}: ${difference}`);
}

function parseSignature(text: string, where: string): LogSignature {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    throw new SignatureError(`${where}: expected a JSON signature file`);
  }
  const s = data as Partial<LogSignature>;
  const valid =
    s !== null &&
    typeof s === 'object' &&
    s.format === SIGNATURE_FORMAT &&
    (s.version === 1 || (s.version === 2 && Array.isArray(s.children) && s.children.every((c) => typeof c?.file === 'string' && typeof c?.sha256 === 'string'))) &&
    (s.algorithm === 'hmac-sha256' || s.algorithm === 'ed25519') &&
    Number.isInteger(s.bytes) &&
    typeof s.sha256 === 'string' &&
    typeof s.signature === 'string';
  if (!valid) throw new SignatureError(`${where}: expected { format: "${SIGNATURE_FORMAT}", version: 1 or 2, algorithm, bytes, sha256, children (version 2), signature }`);
  return s as LogSignature;
}

/** Writes `<log>.sig` for the log at `logPath`; returns the signature path. */
export function signSessionLog(logPath: string, key: SigningKey): string {
  const signature = signLogBytes(readFileSync(logPath), key, treeBelow(logPath));
  const out = signaturePathOf(logPath);
  writeFileSync(out, `${JSON.stringify(signature)}\n`);
  return out;
}

/** Reads and checks the form of the signature file of the log at `logPath`; throws `SignatureError`. */
export function readLogSignature(logPath: string, signaturePath = signaturePathOf(logPath)): LogSignature {
  let text: string;
  try {
    text = readFileSync(signaturePath, 'utf8');
  } catch {
    throw new SignatureError(`${signaturePath}: no signature file next to the log (sign it with turnloop sign ${logPath} --key KEY)`);
  }
  return parseSignature(text, signaturePath);
}

/**
 * Verifies the log at `logPath` against `<log>.sig` (or `signaturePath`); throws `SignatureError`. A caller that
 * then reads the log should verify the very bytes it read (`verifyLogBytes`), not read the file twice.
 */
export function verifySessionLog(logPath: string, key: SigningKey, signaturePath = signaturePathOf(logPath)): LogSignature {
  const signature = readLogSignature(logPath, signaturePath);
  verifyLogBytes(readFileSync(logPath), signature, key, logPath, treeBelow(logPath));
  return signature;
}
