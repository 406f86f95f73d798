/**
 * Encodes a version-3 commit group for a file: the group's lines are encoded to UTF-8 once, after the previous
 * hash, into a buffer the encoder keeps; SHA-256 is taken on those bytes and the hash member is added after them,
 * so the text is neither flattened for the hash and again for the write nor encoded twice.
 *
 * Invariants:
 * - The bytes are exactly the UTF-8 of `${body},"hash":"${hash}"}\n`, and `hash` is `lineHash(previous, body)`
 *   (JSON text holds no lone surrogate, so encoding it as a whole or in parts gives the same bytes).
 * - The returned view is valid until the next `encode` (the writer writes it at once).
 */
import { shortHash } from './stable-hash.ts';

/** The buffer's first size, and the most it keeps between groups (a larger group gets a buffer of its own). */
const FIRST_SIZE = 16 * 1024;
const KEPT_SIZE = 64 * 1024;
const EMPTY = Buffer.alloc(0);

export interface GroupEncoder {
  /** The group's bytes, hash member and newline included, and its hash. */
  encode(previous: string, body: string): { bytes: Uint8Array; hash: string };
}

export function createGroupEncoder(): GroupEncoder {
  let scratch = EMPTY;
  // The hash this encoder returned last: the next group's usual `previous`, 16 hex digits (its UTF-8 is as long).
  let given: string | null = null;
  return {
    encode(previous, body) {
      // At most 3 bytes per UTF-16 code unit, and the hash member's 28.
      const room = previous.length * 3 + body.length * 3 + 64;
      if (scratch.length < room) scratch = Buffer.allocUnsafeSlow(Math.max(room, FIRST_SIZE));
      // The previous hash, the newline and the body in one write (one call into the runtime, one flattening of the
      // body's pieces); the body starts after the previous hash's bytes and the newline.
      const start = (previous === given ? previous.length : Buffer.byteLength(previous)) + 1;
      let at = scratch.write(`${previous}\n${body}`);
      // Plain views, not \`subarray\`: that one looks up the species constructor and runs Buffer's own (a JS frame).
      const hash = shortHash(new Uint8Array(scratch.buffer, scratch.byteOffset, at));
      // ASCII: its UTF-8 (the default, the shortest path of \`write\`) is its Latin-1.
      at += scratch.write(`,"hash":"${hash}"}\n`, at);
      const bytes = new Uint8Array(scratch.buffer, scratch.byteOffset + start, at - start);
      given = hash;
      // A group of a huge tool result does not keep its buffer for the rest of the run.
      if (scratch.length > KEPT_SIZE) scratch = EMPTY;
      return { bytes, hash };
    },
  };
}
