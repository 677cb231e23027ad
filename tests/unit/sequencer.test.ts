import { describe, expect, it } from 'vitest';
import { interleave } from '../sequencer.ts';

const file = (project: string, ms: number, name: string) => ({ project: { name: project }, ms, name });
type File = ReturnType<typeof file>;

describe('the order test files start in mixes browser files and the rest (tests/sequencer.ts)', () => {
  const browser = [90, 70, 60, 30, 20, 10, 5].map((ms, i) => file('browser', ms, `b${i}`));
  const rest = [40, 35, 10, 5, 5, 2, 1, 1, 1].map((ms, i) => file(i % 2 ? 'api' : 'unit', ms, `a${i}`));
  const order = interleave([...browser, ...rest], (f: File) => f.ms);

  it('keeps every file once, and each kind in its own order (longest first)', () => {
    expect(order.map((f) => f.name).toSorted()).toEqual([...browser, ...rest].map((f) => f.name).toSorted());
    expect(order.filter((f) => f.project.name === 'browser')).toEqual(browser);
    expect(order.filter((f) => f.project.name !== 'browser')).toEqual(rest);
  });

  it('queues the two kinds in proportion to their time: neither runs ahead by more than one file', () => {
    const total = (kind: File[]) => kind.reduce((s, f) => s + f.ms, 0);
    const [bt, at] = [total(browser), total(rest)];
    let [b, a] = [0, 0];
    const gaps = order.map((f) => {
      const before = Math.abs(b / bt - a / at);
      if (f.project.name === 'browser') b += f.ms;
      else a += f.ms;
      return before;
    });
    // Before each file is taken, the kinds' queued shares differ by at most the largest single file's share.
    expect(Math.max(...gaps)).toBeLessThanOrEqual(Math.max(90 / bt, 40 / at));
    expect(order.slice(0, 3).map((f) => f.project.name)).toContain('browser');
    expect(order.slice(0, 3).some((f) => f.project.name !== 'browser')).toBe(true);
  });
});
