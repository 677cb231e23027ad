import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createUser, findUserByLogin } from '../../src/lib/server/auth/users.ts';
import { kv, setStoreFactory } from '../../src/lib/server/storage/stores.ts';
import { startBlobs } from '../helpers/blobs.ts';

const run = promisify(execFile);
let blobs: Awaited<ReturnType<typeof startBlobs>>;
let dir: string;
beforeAll(async () => {
  blobs = await startBlobs();
  dir = await mkdtemp(join(tmpdir(), 'export-'));
});
afterAll(async () => {
  await blobs.stop();
  await rm(dir, { recursive: true, force: true });
});

const script = (args: string[], target: { siteID: string; token: string; url: string }) =>
  run(process.execPath, ['scripts/export.mts', ...args], {
    env: {
      PATH: process.env.PATH,
      NETLIFY_SITE_ID: target.siteID,
      NETLIFY_AUTH_TOKEN: target.token,
      BLOBS_EDGE_URL: target.url,
    },
  });

describe('npm run export (backup and restore)', () => {
  it('writes every record to files and restores them into an empty site without overwriting', async () => {
    await createUser({
      username: 'backup-me',
      email: 'backup@example.org',
      password: 'backup password',
      role: 'editor',
    });
    await kv('uploads').putBytes('abc.png', new Uint8Array([137, 80, 78, 71]).buffer, {
      contentType: 'image/png',
    });
    const { stdout } = await script(['--out', dir], blobs);
    expect(stdout).toMatch(/users: \d+ entries/);
    const files = await readFile(join(dir, 'uploads', 'abc.png'));
    expect([...files]).toEqual([137, 80, 78, 71]);

    const target = await startBlobs();
    try {
      const restored = await script(['--restore', '--in', dir], target);
      expect(restored.stdout).toMatch(/Restored [1-9]\d* entries \(0 already present/);
      setStoreFactory(null);
      expect((await findUserByLogin('backup-me'))?.email).toBe('backup@example.org');
      const again = await script(['--restore', '--in', dir], target);
      expect(again.stdout).toMatch(/Restored 0 entries/);
    } finally {
      await target.stop();
    }
  });
});
