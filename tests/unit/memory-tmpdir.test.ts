import { describe, expect, it } from 'vitest';
import { MEMORY_TMPDIR, MIN_FREE_BYTES, memoryTmpdir } from '../memory-tmpdir.ts';

describe('the test run keeps its temporary files in memory where it can (tests/memory-tmpdir.ts)', () => {
  it('uses the memory file system when it has room and nobody chose a TMPDIR', () => {
    expect(memoryTmpdir({}, () => MIN_FREE_BYTES)).toBe(MEMORY_TMPDIR);
  });

  it('keeps a TMPDIR someone set', () => {
    expect(memoryTmpdir({ TMPDIR: '/var/tmp' }, () => MIN_FREE_BYTES * 10)).toBeNull();
  });

  it('keeps the system default when the memory file system is small, missing or read-only', () => {
    expect(memoryTmpdir({}, () => MIN_FREE_BYTES - 1)).toBeNull();
    expect(
      memoryTmpdir({}, () => {
        throw Object.assign(new Error('ENOENT'), { code: 'ENOENT' });
      }),
    ).toBeNull();
  });
});
