import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import * as loginFn from '../../netlify/functions/auth-login.mts';
import { startBlobs } from '../helpers/blobs.ts';
import { call } from '../helpers/http.ts';

const run = promisify(execFile);
let blobs: Awaited<ReturnType<typeof startBlobs>>;
beforeAll(async () => {
  blobs = await startBlobs();
});
afterAll(async () => {
  await blobs.stop();
});

function createAdmin(args: string[], password: string, withSite = true) {
  return run(process.execPath, ['scripts/create-admin.mts', ...args], {
    env: {
      PATH: process.env.PATH,
      ADMIN_PASSWORD: password,
      ...(withSite
        ? { NETLIFY_SITE_ID: blobs.siteID, NETLIFY_AUTH_TOKEN: blobs.token, BLOBS_EDGE_URL: blobs.url }
        : {}),
    },
  });
}

describe('npm run create-admin (production bootstrap)', () => {
  it('creates an admin who can sign in', async () => {
    const { stdout } = await createAdmin(
      ['--username', 'first-admin', '--email', 'First@Example.org'],
      'a strong first password',
    );
    expect(stdout).toMatch(/Created admin #\d+ first-admin <first@example.org>/);
    const res = await call(loginFn, '/api/auth/login', {
      json: { username: 'first-admin', password: 'a strong first password' },
    });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { role: string }).role).toBe('admin');
  });

  it('refuses a short password and missing site credentials without creating anything', async () => {
    await expect(
      createAdmin(['--username', 'second', '--email', 's@example.org'], '123'),
    ).rejects.toMatchObject({ code: 2 });
    await expect(
      createAdmin(['--username', 'third', '--email', 't@example.org'], 'long enough', false),
    ).rejects.toMatchObject({ code: 2 });
    const res = await call(loginFn, '/api/auth/login', { json: { username: 'second', password: '123' } });
    expect(res.status).toBe(401);
  });
});
