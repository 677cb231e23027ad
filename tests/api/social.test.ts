import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import * as adminSocial from '../../netlify/functions/admin-social-media-links.mts';
import * as authMe from '../../netlify/functions/auth-me.mts';
import * as socialFn from '../../netlify/functions/social-media-links.mts';
import type { SocialLink } from '../../src/lib/schemas/social.ts';
import { startBlobs } from '../helpers/blobs.ts';
import { makeUsers } from '../helpers/content-users.ts';
import { call } from '../helpers/http.ts';

let stop: () => Promise<void>;
let editor: string;
let viewer: string;

// A fresh store for each test: 'from the start' means no link another test saved.
beforeEach(async () => {
  ({ stop } = await startBlobs());
  const users = await makeUsers();
  editor = users.editor!;
  viewer = users.viewer!;
});
afterEach(() => stop());

async function adminLinks(): Promise<SocialLink[]> {
  const res = await call(adminSocial, '/api/admin/social-media-links', { cookie: viewer });
  expect(res.status).toBe(200);
  return ((await res.json()) as { links: SocialLink[] }).links;
}

async function publicLinks() {
  const res = await call(socialFn, '/api/social-media-links');
  expect(res.status).toBe(200);
  expect(res.headers.get('netlify-cache-tag')).toBe('social-media-links');
  return ((await res.json()) as { links: { id: number; platform: string; url: string; handle: string }[] })
    .links;
}

const put = (id: number, json: unknown, cookie = editor) =>
  call(adminSocial, `/api/admin/social-media-links/${id}`, { method: 'PUT', json, cookie });

describe('social media links', () => {
  it('the six platforms exist from the start (inactive, empty) and the public list is empty', async () => {
    const links = await adminLinks();
    expect(links.map((l) => l.platform)).toEqual([
      'facebook',
      'x',
      'instagram',
      'linkedin',
      'youtube',
      'tiktok',
    ]);
    expect(links.every((l) => !l.isActive)).toBe(true);
    expect(await publicLinks()).toEqual([]);
  });

  it('update sets updatedBy to the acting username; public list: active only, by display order, public fields only', async () => {
    const res = await put(2, {
      url: 'https://x.com/averyformayor',
      handle: '@averyformayor',
      isActive: true,
      displayOrder: 1,
    });
    expect(res.status).toBe(200);
    const { link } = (await res.json()) as { link: SocialLink };
    const me = (await (await call(authMe, '/api/auth/me', { cookie: editor })).json()) as {
      user: { username: string };
    };
    expect(link.updatedBy).toBe(me.user.username);
    expect(link.platform).toBe('x');
    await put(1, { url: 'https://facebook.com/averyformayor', handle: '', isActive: true, displayOrder: 2 });
    await put(3, {
      url: 'https://instagram.com/averyformayor',
      handle: '',
      isActive: false,
      displayOrder: 3,
    });
    const pub = await publicLinks();
    expect(pub).toEqual([
      { id: 2, platform: 'x', url: 'https://x.com/averyformayor', handle: '@averyformayor' },
      { id: 1, platform: 'facebook', url: 'https://facebook.com/averyformayor', handle: '' },
    ]);
  });

  it('displayOrder falls back to 1 and has a minimum of 1 (spec 5)', async () => {
    for (const [value, expected] of [
      ['abc', 1],
      [0, 1],
      [-4, 1],
      ['7', 7],
      [3.9, 3],
    ] as const) {
      const res = await put(4, { url: '', handle: '', isActive: false, displayOrder: value });
      expect(((await res.json()) as { link: SocialLink }).link.displayOrder).toBe(expected);
    }
  });

  it('validation: bad URL, unknown field, missing field; 405 for POST/DELETE (no create or delete); 404 unknown id', async () => {
    const bad = await put(5, { url: 'javascript:alert(1)', handle: '', isActive: true, displayOrder: 1 });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: string }).error).toBe('Must be an http or https URL');
    expect(
      (await put(5, { url: '', handle: '', isActive: true, displayOrder: 1, platform: 'myspace' })).status,
    ).toBe(400);
    expect((await put(5, { url: '' })).status).toBe(400);
    expect(
      (await put(5, { url: '', handle: 'x'.repeat(70 * 1024), isActive: true, displayOrder: 1 })).status,
    ).toBe(413);
    expect(
      (await call(adminSocial, '/api/admin/social-media-links', { method: 'POST', json: {}, cookie: editor }))
        .status,
    ).toBe(405);
    expect(
      (await call(adminSocial, '/api/admin/social-media-links/1', { method: 'DELETE', cookie: editor }))
        .status,
    ).toBe(405);
    expect((await call(socialFn, '/api/social-media-links', { method: 'POST', json: {} })).status).toBe(405);
    expect((await put(7, { url: '', handle: '', isActive: false, displayOrder: 1 })).status).toBe(404);
  });
});
