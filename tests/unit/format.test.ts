import { describe, expect, it } from 'vitest';
import { formatUsd } from '../../src/lib/format';

describe('formatUsd', () => {
  it('formats whole dollars with separators and no cents', () => {
    expect(formatUsd(25)).toBe('$25');
    expect(formatUsd(1000)).toBe('$1,000');
    expect(formatUsd(12_000)).toBe('$12,000');
  });
});
