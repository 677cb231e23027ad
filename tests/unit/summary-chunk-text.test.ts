import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  ChunkText,
  Damaged,
  encodeChunk,
  searchableBytes,
} from '../../src/lib/server/storage/summary-index/chunk-text.ts';

/*
 * A chunk's searched texts are scanned as UTF-8 bytes (docs/decisions/155-inbox-and-staff-lists.md): for every
 * needle searchableBytes accepts, the rows found are exactly those whose text `includes` it; the rows come back
 * as they went in.
 */

/** Text from a small alphabet that makes matches, line breaks, NULs, U+FFFD and lone surrogates likely. */
const text = fc
  .array(
    fc.constantFrom('a', 'b', 'ñ', 'ễ', 'i̇', '\n', '\0', '\uFFFD', '\uD800', '\uDC00', '😀', ' ', '"', '\\'),
    {
      maxLength: 12,
    },
  )
  .map((cs) => cs.join(''));

describe('chunk text', () => {
  it('finds exactly the rows whose text includes a searchable needle, each once, in order', () => {
    fc.assert(
      fc.property(fc.array(text, { maxLength: 30 }), text, (texts, needle) => {
        const rows = texts.map((t, i) => [`k${i}`, t]);
        const hidden = texts.flatMap((_, i) => (i % 4 === 3 ? [i] : []));
        const chunk = new ChunkText(encodeChunk({ texts, rows, hidden, columns: { t: texts } }));
        expect(chunk.n).toBe(texts.length);
        texts.forEach((_, i) => expect(chunk.row(i)).toEqual(rows[i]));
        expect(chunk.all()).toEqual(rows);
        expect(chunk.column('t')).toEqual(texts);
        expect([...chunk.shown].flatMap((shown, i) => (shown ? [] : [i]))).toEqual(hidden);
        const bytes = searchableBytes(needle);
        const expected = texts.flatMap((t, i) => (t.includes(needle) ? [i] : []));
        // A needle is searched as bytes exactly when it has some that stand for it alone.
        expect(bytes === null).toBe(
          needle === '' || /[\n\0\uFFFD]/.test(needle) || Buffer.from(needle).toString() !== needle,
        );
        expect(bytes === null ? expected : chunk.find(bytes)).toEqual(expected);
      }),
      { numRuns: 500 },
    );
  });

  it('a needle searched in the stored texts is one that a byte search answers exactly', () => {
    expect(searchableBytes('metairie')?.toString()).toBe('metairie');
    expect(searchableBytes('peña nguyễn 😀')).not.toBeNull();
    for (const needle of ['', 'a\nb', 'a\0', '\uFFFD', 'bad\uD800'])
      expect(searchableBytes(needle)).toBeNull();
  });

  it('a blob that is not a chunk, or not of its count, is damage', () => {
    const zlib = process.getBuiltinModule('node:zlib');
    /** A chunk of these texts and rows, its header as given. */
    const stored = (header: unknown, texts: string, rows: string) => {
      const head = zlib.gzipSync(`${JSON.stringify(header)}\n${texts}`);
      const size = Buffer.alloc(4);
      size.writeUInt32BE(head.length);
      return Buffer.concat([size, head, zlib.gzipSync(rows)]);
    };
    const header = { n: 2, texts: [1, 1], rows: [3, 3], hidden: [], columns: {} };
    expect(new ChunkText(stored(header, 'a\nb', '[[1],\n[2]]')).row(1)).toEqual([2]);
    for (const bad of [
      Buffer.from('no'),
      Buffer.from('not a chunk at all'),
      stored({ x: 1 }, '', ''),
      stored({ ...header, n: 3 }, 'a\nb', '[[1],\n[2]]'),
      stored({ ...header, texts: [1, 2] }, 'a\nb', '[[1],\n[2]]'),
      stored({ ...header, hidden: [2] }, 'a\nb', '[[1],\n[2]]'),
      stored({ ...header, columns: null }, 'a\nb', '[[1],\n[2]]'),
    ])
      expect(() => new ChunkText(bad)).toThrow(Damaged);
    for (const rows of ['[[1],\n[2],\n[3]]', '[[1],\nno!]']) {
      const chunk = new ChunkText(stored(header, 'a\nb', rows));
      expect(() => chunk.row(1)).toThrow(Damaged);
    }
    expect(() => new ChunkText(stored({ ...header, columns: { c: [1] } }, 'a\nb', '')).column('c')).toThrow(
      Damaged,
    );
  });
});
