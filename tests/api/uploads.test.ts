import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as upload from '../../netlify/functions/upload.mts';
import * as uploads from '../../netlify/functions/uploads.mts';
import { kv } from '../../src/lib/server/storage/stores.ts';
import { startBlobs } from '../helpers/blobs.ts';
import { makeUsers, type Who } from '../helpers/content-users.ts';
import { call } from '../helpers/http.ts';

let stop: () => Promise<void>;
let users: Record<Who, string | undefined>;

beforeAll(async () => {
  ({ stop } = await startBlobs());
  users = await makeUsers();
});
afterAll(() => stop());

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);
const GIF = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');
const JPEG = Buffer.concat([
  Buffer.from([
    0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00,
    0x01, 0x00, 0x00,
  ]),
  Buffer.alloc(64),
  Buffer.from([0xff, 0xd9]),
]);
const WEBP = (() => {
  const vp8 = Buffer.concat([
    Buffer.from('VP8L'),
    Buffer.from([0x0a, 0, 0, 0]),
    Buffer.from([0x2f, 0, 0, 0, 0x10, 0x07, 0x10, 0x11, 0x11, 0x88]),
  ]);
  const body = Buffer.concat([Buffer.from('WEBP'), vp8]);
  const size = Buffer.alloc(4);
  size.writeUInt32LE(body.length);
  return Buffer.concat([Buffer.from('RIFF'), size, body]);
})();
const SVG = Buffer.from(
  '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><script>alert(1)</script></svg>',
);
const HTML = Buffer.from('<!doctype html><script>alert(1)</script>');

function form(data: Buffer, filename: string, type: string, field = 'image'): FormData {
  const f = new FormData();
  f.append(field, new Blob([new Uint8Array(data)], { type }), filename);
  return f;
}

async function post(
  body: FormData | string,
  cookie: string | undefined = users.editor,
  headers?: Record<string, string>,
) {
  return call(upload, '/api/upload', { method: 'POST', body, cookie, headers });
}

/** How many uploads are stored (each test counts for itself: tests run in any order). */
async function storedCount(): Promise<number> {
  let n = 0;
  for await (const page of kv('uploads').keys()) n += page.length;
  return n;
}

describe('POST /api/upload and GET /api/uploads/:name', () => {
  it.each([
    ['png', PNG, 'image/png'],
    ['gif', GIF, 'image/gif'],
    ['jpg', JPEG, 'image/jpeg'],
    ['webp', WEBP, 'image/webp'],
  ] as const)(
    'stores a %s under a random name and serves it back with safe headers',
    async (ext, bytes, type) => {
      const res = await post(form(bytes, `photo.${ext}`, 'application/octet-stream'));
      expect(res.status, await res.clone().text()).toBe(201);
      const body = (await res.json()) as { success: boolean; imageUrl: string };
      expect(body.success).toBe(true);
      expect(body.imageUrl).toMatch(new RegExp(`^/api/uploads/[a-f0-9]{32}\\.${ext}$`));
      const got = await call(uploads, body.imageUrl);
      expect(got.status).toBe(200);
      expect(got.headers.get('content-type')).toBe(type);
      expect(got.headers.get('x-content-type-options')).toBe('nosniff');
      expect(got.headers.get('content-security-policy')).toBe("default-src 'none'; sandbox");
      expect(got.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      expect(Buffer.from(await got.arrayBuffer()).equals(bytes)).toBe(true);
      // The never-reused name is a strong ETag: a revalidation costs a 304 and no body.
      const etag = got.headers.get('etag');
      expect(etag).toBe(`"${body.imageUrl.split('/').pop()}"`);
      const again = await call(uploads, body.imageUrl, { headers: { 'if-none-match': etag! } });
      expect(again.status).toBe(304);
      expect((await again.arrayBuffer()).byteLength).toBe(0);
      expect(again.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      const other = await call(uploads, body.imageUrl, { headers: { 'if-none-match': '"something-else"' } });
      expect(other.status).toBe(200);
    },
  );

  it('two uploads of the same file get different names', async () => {
    const a = (await (await post(form(PNG, 'a.png', 'image/png'))).json()) as { imageUrl: string };
    const b = (await (await post(form(PNG, 'a.png', 'image/png'))).json()) as { imageUrl: string };
    expect(a.imageUrl).not.toBe(b.imageUrl);
  });

  it('415 for SVG (whatever it is called), an SVG renamed .png, a PNG renamed .svg, HTML, ZIP; nothing stored', async () => {
    const storedBefore = await storedCount();
    for (const [bytes, name, type] of [
      [SVG, 'x.svg', 'image/svg+xml'],
      [SVG, 'x.png', 'image/png'],
      [SVG, 'x.png', 'application/octet-stream'],
      [PNG, 'x.svg', 'image/svg+xml'],
      [PNG, 'x.svg', 'application/octet-stream'],
      [PNG, 'x.png', 'image/svg+xml'],
      [GIF, 'x.jpg', 'image/jpeg'],
      [HTML, 'x.jpg', 'image/jpeg'],
      [Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x14, 0, 0, 0, 0, 0]), 'x.gif', 'image/gif'],
    ] as const) {
      const res = await post(form(bytes, name, type));
      expect(res.status, `${name} ${type}`).toBe(415);
      expect(await res.json()).toEqual({
        success: false,
        error: 'Only JPEG, PNG, WebP and GIF images are allowed',
      });
    }
    expect(await storedCount()).toBe(storedBefore);
  });

  it('413 over 4 MB, 400 without an image field, 415 when not multipart', async () => {
    const big = Buffer.concat([PNG, Buffer.alloc(4 * 1024 * 1024)]);
    const res = await post(form(big, 'big.png', 'image/png'));
    expect(res.status).toBe(413);
    expect(((await res.json()) as { success: boolean }).success).toBe(false);
    const none = await post(form(PNG, 'a.png', 'image/png', 'file'));
    expect(none.status).toBe(400);
    expect(await none.json()).toEqual({ success: false, error: 'Please choose an image to upload' });
    const text = await post('hello', users.editor, { 'content-type': 'text/plain' });
    expect(text.status).toBe(415);
  });

  it('permissions: anonymous 401, viewer 403, inactive 401, editor and admin OK; answers carry success:false', async () => {
    for (const [who, status] of [
      ['anonymous', 401],
      ['viewer', 403],
      ['inactive', 401],
      ['editor', 201],
      ['admin', 201],
    ] as const) {
      const res = await call(upload, '/api/upload', {
        method: 'POST',
        body: form(PNG, 'a.png', 'image/png'),
        cookie: users[who],
      });
      expect(res.status, who).toBe(status);
      expect(((await res.json()) as { success: boolean }).success).toBe(status === 201);
    }
    const cross = await call(upload, '/api/upload', {
      method: 'POST',
      body: form(PNG, 'a.png', 'image/png'),
      cookie: users.editor,
      crossSite: true,
      headers: { origin: 'https://evil.example' },
    });
    expect(cross.status).toBe(403);
  });

  it('405 for a wrong method; 404 for unknown or malformed names', async () => {
    const get = await call(upload, '/api/upload', { cookie: users.editor });
    expect(get.status).toBe(405);
    expect(((await get.json()) as { success: boolean }).success).toBe(false);
    expect(
      (await call(uploads, '/api/uploads/0123456789abcdef0123456789abcdef.png', { method: 'DELETE' })).status,
    ).toBe(405);
    for (const name of ['0123456789abcdef0123456789abcdef.png', 'evil.svg', '..%2Fusers', 'x.html']) {
      expect((await call(uploads, `/api/uploads/${name}`)).status).toBe(404);
    }
  });
});
