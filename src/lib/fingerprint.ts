/* A neutral module (no content, no zod): schemas, content and the server all fingerprint texts with it. */

/**
 * FNV-1a (32 bit) of a text, as 8 hex digits: a pure, synchronous fingerprint
 * that runs at build time, in functions and in tests alike. Not a security hash
 * (the consent record also keeps the text's sha256); it only has to change when
 * the text changes.
 */
export function fingerprint(text: string): string {
  let hash = 0x811c9dc5;
  for (const byte of new TextEncoder().encode(text)) {
    hash ^= byte;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(16).padStart(8, '0');
}
