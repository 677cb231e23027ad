import { key } from '../keys.ts';
import { mapLimit } from '../map-limit.ts';
import { kv } from '../stores.ts';
import { Damaged } from './chunk-text.ts';
import {
  CONCURRENCY,
  Moved,
  type BundleRef,
  type ChunkRef,
  type SummaryRecord,
  type SummarySpec,
} from './spec.ts';

/**
 * An index's bundle (docs/decisions/155-inbox-and-staff-lists.md, "Reads"): every chunk of a base, byte for byte,
 * in one blob, so a search or a filter reads one blob however many chunks the list has (a page still reads
 * only its own chunk). Written by the scheduled compaction, a rebuild and the bulk path; a reader's fold leaves
 * the previous one named, and a chunk it does not hold is read on its own.
 *
 *     4 bytes (big-endian): the header's length
 *     header: {"keys":[<chunk key>...],"sizes":[<byte length of each>]} (JSON)
 *     each chunk's stored bytes (chunk-text.ts), in the header's order
 */

/** A bundle's bytes: the chunks' stored bytes after a header naming them. */
export function encodeBundle(keys: readonly string[], parts: readonly Uint8Array[]): ArrayBuffer {
  const header = Buffer.from(JSON.stringify({ keys, sizes: parts.map((p) => p.byteLength) }));
  const size = Buffer.alloc(4);
  size.writeUInt32BE(header.length);
  const out = Buffer.concat([size, header, ...parts]);
  return out.buffer.slice(out.byteOffset, out.byteOffset + out.byteLength);
}

/** The chunks' bytes by key (views of the bundle's bytes, not copies). */
export function decodeBundle(stored: ArrayBuffer): Map<string, Uint8Array> {
  const bytes = new Uint8Array(stored);
  if (bytes.length < 4) throw new Damaged('bundle too short');
  const headSize = Buffer.from(bytes.buffer, bytes.byteOffset, 4).readUInt32BE(0);
  let header: { keys?: unknown; sizes?: unknown };
  try {
    header = JSON.parse(Buffer.from(bytes.buffer, bytes.byteOffset + 4, headSize).toString('utf8')) as {
      keys?: unknown;
      sizes?: unknown;
    };
  } catch {
    throw new Damaged('bundle without a header');
  }
  const { keys, sizes } = header;
  if (!Array.isArray(keys) || !Array.isArray(sizes) || keys.length !== sizes.length)
    throw new Damaged('bundle header');
  const out = new Map<string, Uint8Array>();
  let at = 4 + headSize;
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i] as unknown;
    const n = sizes[i] as unknown;
    if (typeof k !== 'string' || !Number.isInteger(n) || (n as number) < 0)
      throw new Damaged('bundle header');
    if (at + (n as number) > bytes.length) throw new Damaged('bundle shorter than its chunks');
    out.set(k, bytes.subarray(at, at + (n as number)));
    at += n as number;
  }
  if (at !== bytes.length) throw new Damaged('bundle longer than its chunks');
  return out;
}

/**
 * Writes the bundle of `chunks` (their bytes from `have` when just written, else read from the store). Returns
 * its reference for the manifest.
 */
export async function writeBundle<S extends SummaryRecord>(
  spec: SummarySpec<S>,
  gen: string,
  chunks: readonly ChunkRef[],
  have: ReadonlyMap<string, ArrayBuffer> = new Map(),
): Promise<BundleRef> {
  const store = kv(spec.store);
  const parts = await mapLimit([...chunks], CONCURRENCY, async (c) => {
    const known = have.get(c.key);
    if (known) return new Uint8Array(known);
    const got = await store.getBytes(c.key);
    if (!got) throw new Moved(c.key);
    return new Uint8Array(got.data);
  });
  const k = key('summary', 'bundle', gen);
  const keys = chunks.map((c) => c.key);
  if (!(await store.putBytes(k, encodeBundle(keys, parts), { format: '1' })))
    throw new Error(`bundle ${k} exists`);
  return { key: k, chunks: keys };
}

/** Whether the bundle holds every chunk of the list (a search then reads it and no chunk). */
export const bundleCovers = (bundle: BundleRef | null | undefined, chunks: readonly ChunkRef[]): boolean =>
  !!bundle && chunks.every((c) => bundle.chunks.includes(c.key));
