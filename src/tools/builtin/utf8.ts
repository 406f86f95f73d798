/**
 * Strict UTF-8 decoding: a file that is not valid UTF-8 is reported with the offset of its first bad byte instead of
 * being decoded with U+FFFD replacements (which an Edit would then write back, corrupting the file).
 */
const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/** The text of `bytes`, or the byte offset of the first byte that is not valid UTF-8. */
export function decodeUtf8(bytes: Uint8Array): { text: string } | { badByteOffset: number } {
  try {
    return { text: strictUtf8.decode(bytes) };
  } catch {
    return { badByteOffset: firstInvalidUtf8Offset(bytes) };
  }
}

/** Offset of the first byte that does not start or continue a well-formed UTF-8 sequence (-1 if none). */
export function firstInvalidUtf8Offset(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i];
    const need = b < 0x80 ? 0 : b >= 0xc2 && b <= 0xdf ? 1 : b >= 0xe0 && b <= 0xef ? 2 : b >= 0xf0 && b <= 0xf4 ? 3 : -1;
    if (need < 0) return i;
    if (i + need >= bytes.length && need > 0) return i;
    for (let k = 1; k <= need; k++) {
      const c = bytes[i + k];
      // The second byte of E0/ED/F0/F4 sequences has a narrower range (no overlongs, surrogates or > U+10FFFF).
      const lo = k === 1 && b === 0xe0 ? 0xa0 : k === 1 && b === 0xf0 ? 0x90 : 0x80;
      const hi = k === 1 && b === 0xed ? 0x9f : k === 1 && b === 0xf4 ? 0x8f : 0xbf;
      if (c < lo || c > hi) return i;
    }
    i += need + 1;
  }
  return -1;
}
