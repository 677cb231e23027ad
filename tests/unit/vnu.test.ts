import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { vnu } from '../browser/helpers/vnu.ts';

/*
 * The Nu Html Checker helper the browser validators use (tests/browser/validators.test.ts) fails
 * when the checker cannot run, instead of reporting "no errors" (docs/decisions/163-tests.md).
 */
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'vnu-unit-'));
  await writeFile(
    join(dir, 'good.html'),
    '<!doctype html><html lang="en"><title>ok</title><p>fine</p></html>',
  );
  await writeFile(
    join(dir, 'bad.html'),
    '<!doctype html><html lang="en"><title>x</title><p><div></p></html>',
  );
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('vnu()', () => {
  it('runs the checker: no errors on a valid page, the error on an invalid one', async () => {
    const messages = await vnu([join(dir, 'good.html'), join(dir, 'bad.html')]);
    expect(messages.length).toBeGreaterThan(0);
    expect(messages.every((m) => m.url.endsWith('bad.html'))).toBe(true);
  }, 60_000);

  it('fails when Java cannot start (no silent pass)', async () => {
    await expect(vnu([join(dir, 'good.html')], 'no-such-java-binary')).rejects.toThrow(
      /Nu Html Checker did not run/,
    );
  });

  it('fails on a file that is not there (vnu itself skips it without a word) or on no files', async () => {
    await expect(vnu([join(dir, 'good.html'), join(dir, 'missing.html')])).rejects.toThrow(/missing files/);
    await expect(vnu([])).rejects.toThrow(/no files/);
  });
});
