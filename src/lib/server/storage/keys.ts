const MAX_KEY_BYTES = 600;

/**
 * The one way keys are built: parts joined by '/', each part restricted to a
 * safe alphabet, no leading '/', at most 600 bytes.
 */
export function key(...parts: (string | number)[]): string {
  const k = parts
    .map((p) => {
      const s = String(p);
      if (!/^[A-Za-z0-9._@:+-]+$/.test(s) || s === '.' || s === '..') {
        throw new Error(`Unsafe key part: ${JSON.stringify(s)}`);
      }
      return s;
    })
    .join('/');
  if (Buffer.byteLength(k) > MAX_KEY_BYTES) throw new Error('Key too long');
  return k;
}

/**
 * SHA-256 hex. node:crypto takes about as long to load as the rest of a public
 * read function together, and only key hashing and the local store use it, so
 * it is loaded on first use (docs/decisions/162-public-pages-and-performance.md).
 */
export const sha256Hex = (text: string) =>
  process.getBuiltinModule('node:crypto').createHash('sha256').update(text).digest('hex');

/** Personal data (emails, phones) never appears in a key: normalised, then hashed. */
export function hashed(personal: string): string {
  return sha256Hex(personal.trim().toLowerCase());
}
