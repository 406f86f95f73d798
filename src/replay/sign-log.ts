/**
 * Signing session logs that cross a trust boundary. The hash chain (see `stable-hash.ts`) catches accidents: a
 * damaged or edited line no longer refolds to its recorded hash. It proves nothing about who wrote the log, since
 * anyone can recompute it. A signature can: it is made with a key only the signer holds.
 *
 * Format: a sidecar file `<log>.sig` (the log itself is unchanged, so every reader of the log format still works),
 * JSON `{ format, version, algorithm, bytes, sha256, signature }`. The signed message is
 * `turnloop-session-signature/1\n<bytes>\n<sha256 of the log's bytes>`, so the signature covers every byte of the
 * log, the hash chain included, and a log appended to after signing (a resume) no longer verifies.
 *
 * Keys (one file, read by `loadSigningKey`): a PEM Ed25519 key (private to sign; public or private to verify), or
 * any other content, taken as an HMAC-SHA256 secret (surrounding whitespace trimmed, at least 16 bytes).
 */
import { createHash, createHmac, createPrivateKey, createPublicKey, sign, timingSafeEqual, verify, type KeyObject } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { TurnloopError } from '../errors/turnloop-error.ts';

export const SIGNATURE_FORMAT = 'turnloop-signature';
const SIGNED_PREFIX = 'turnloop-session-signature/1';

export type SigningKey = { kind: 'hmac'; secret: Buffer } | { kind: 'ed25519'; key: KeyObject; isPrivate: boolean };

export interface LogSignature {
  format: typeof SIGNATURE_FORMAT;
  version: 1;
  algorithm: 'hmac-sha256' | 'ed25519';
  bytes: number;
  sha256: string;
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
      if (key.asymmetricKeyType !== 'ed25519') throw new Error(`a ${key.asymmetricKeyType ?? 'non-Ed25519'} key`);
      return { kind: 'ed25519', key, isPrivate };
    } catch (error) {
      throw new SignatureError(`${keyPath}: expected a PEM Ed25519 key, got ${(error as Error).message}`);
    }
  }
  const secret = Buffer.from(text.trim(), 'utf8');
  if (secret.length < 16) throw new SignatureError(`${keyPath}: an HMAC secret needs at least 16 bytes, this one has ${secret.length}`);
  return { kind: 'hmac', secret };
}

function signedMessage(bytes: Buffer): Buffer {
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  return Buffer.from(`${SIGNED_PREFIX}\n${bytes.length}\n${sha256}`, 'utf8');
}

/** Signs the log's bytes. */
export function signLogBytes(bytes: Buffer, key: SigningKey): LogSignature {
  const message = signedMessage(bytes);
  const base = { format: SIGNATURE_FORMAT as typeof SIGNATURE_FORMAT, version: 1 as const, bytes: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex') };
  if (key.kind === 'hmac') return { ...base, algorithm: 'hmac-sha256', signature: createHmac('sha256', key.secret).update(message).digest('base64') };
  if (!key.isPrivate) throw new SignatureError('signing needs the PRIVATE Ed25519 key; this is a public key');
  return { ...base, algorithm: 'ed25519', signature: sign(null, message, key.key).toString('base64') };
}

/** Throws `SignatureError` unless `signature` is a valid signature of `bytes` under `key`. */
export function verifyLogBytes(bytes: Buffer, signature: LogSignature, key: SigningKey, where = 'the log'): void {
  const expectedAlgorithm = key.kind === 'hmac' ? 'hmac-sha256' : 'ed25519';
  if (signature.algorithm !== expectedAlgorithm) {
    throw new SignatureError(`${where}: signed with ${signature.algorithm}, but the key given is for ${expectedAlgorithm}`);
  }
  if (signature.bytes !== bytes.length) {
    throw new SignatureError(`${where}: the signature covers ${signature.bytes} bytes, the log has ${bytes.length} (changed or appended to after signing)`);
  }
  const message = signedMessage(bytes);
  const given = Buffer.from(signature.signature, 'base64');
  const ok =
    key.kind === 'hmac'
      ? (() => {
          const expected = createHmac('sha256', key.secret).update(message).digest();
          return given.length === expected.length && timingSafeEqual(given, expected);
        })()
      : verify(null, message, key.isPrivate ? createPublicKey(key.key) : key.key, given);
  if (!ok) throw new SignatureError(`${where}: the signature does not match (the log was changed, or signed with another key)`);
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
    s.version === 1 &&
    (s.algorithm === 'hmac-sha256' || s.algorithm === 'ed25519') &&
    Number.isInteger(s.bytes) &&
    typeof s.sha256 === 'string' &&
    typeof s.signature === 'string';
  if (!valid) throw new SignatureError(`${where}: expected { format: "${SIGNATURE_FORMAT}", version: 1, algorithm, bytes, sha256, signature }`);
  return s as LogSignature;
}

/** Writes `<log>.sig` for the log at `logPath`; returns the signature path. */
export function signSessionLog(logPath: string, key: SigningKey): string {
  const signature = signLogBytes(readFileSync(logPath), key);
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
  verifyLogBytes(readFileSync(logPath), signature, key, logPath);
  return signature;
}
