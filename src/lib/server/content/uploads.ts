import { randomBytes } from 'node:crypto';
import { fileTypeFromBuffer } from 'file-type';
import { HttpError } from '../errors.ts';
import { readBody } from '../http.ts';
import { key } from '../storage/keys.ts';
import { kv } from '../storage/stores.ts';

/** Under Netlify's ~4.5 MB request limit (SECURITY.md). */
export const MAX_UPLOAD_BYTES = 4 * 1024 * 1024;
/** Room for the multipart envelope around the file. */
const MULTIPART_OVERHEAD = 64 * 1024;

/** Types we accept, by magic bytes only (never the name or the declared type). Never SVG. */
const ALLOWED: Record<string, string> = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/webp': 'webp',
  'image/gif': 'gif',
};
const EXT_TYPES: Record<string, string> = Object.fromEntries(Object.entries(ALLOWED).map(([t, e]) => [e, t]));

/** Server-made names only: 32 hex characters and one of our extensions. */
export const UPLOAD_NAME = /^[a-f0-9]{32}\.(jpg|png|webp|gif)$/;

const fail = (status: number, error: string) => new HttpError(status, error, { success: false });
const tooLarge = () => fail(413, 'Image is too large (maximum 4 MB)');

const NAME_EXTS: Record<string, string[]> = {
  'image/jpeg': ['jpg', 'jpeg', 'jfif', 'pjpeg', 'pjp'],
  'image/png': ['png'],
  'image/webp': ['webp'],
  'image/gif': ['gif'],
};

/**
 * The bytes decide the type; a file whose name or declared type says
 * something else (a PNG called .svg, an SVG called .png) is refused rather
 * than guessed at, so what an editor sees is what gets stored.
 */
function nameAndTypeAgree(file: Blob, mime: string): boolean {
  const name = file instanceof File ? file.name : '';
  const dot = name.lastIndexOf('.');
  if (dot > 0 && !NAME_EXTS[mime]?.includes(name.slice(dot + 1).toLowerCase())) return false;
  const declared = file.type.split(';')[0]?.trim().toLowerCase() ?? '';
  const generic = declared === '' || declared === 'application/octet-stream';
  return generic || declared === mime || (mime === 'image/jpeg' && declared === 'image/jpg');
}

/** POST /api/upload: validates the multipart `image` field and stores it under a random name. */
export async function saveUpload(req: Request): Promise<{ name: string; contentType: string }> {
  const type = req.headers.get('content-type') ?? '';
  if (!/^multipart\/form-data\b/i.test(type))
    throw fail(415, 'Please upload the image as multipart/form-data');
  const body = await readBody(req, MAX_UPLOAD_BYTES + MULTIPART_OVERHEAD, tooLarge);
  let form: FormData;
  try {
    form = await new Response(body, { headers: { 'content-type': type } }).formData();
  } catch {
    throw fail(400, 'Could not read the uploaded form');
  }
  const file = form.get('image');
  if (!(file instanceof Blob) || file.size === 0) throw fail(400, 'Please choose an image to upload');
  if (file.size > MAX_UPLOAD_BYTES) throw tooLarge();
  const bytes = new Uint8Array(await file.arrayBuffer());
  const detected = await fileTypeFromBuffer(bytes);
  const ext = detected ? ALLOWED[detected.mime] : undefined;
  if (!detected || !ext || !nameAndTypeAgree(file, detected.mime))
    throw fail(415, 'Only JPEG, PNG, WebP and GIF images are allowed');
  for (let attempt = 0; attempt < 3; attempt++) {
    const name = `${randomBytes(16).toString('hex')}.${ext}`;
    const data = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
    if (await kv('uploads').putBytes(key(name), data, { contentType: detected.mime }))
      return { name, contentType: detected.mime };
  }
  throw fail(503, 'Please try again');
}

/** GET /api/uploads/:name: the stored bytes and type, or null. */
export async function readUpload(name: string): Promise<{ data: ArrayBuffer; contentType: string } | null> {
  if (!UPLOAD_NAME.test(name)) return null;
  const found = await kv('uploads').getBytes(key(name));
  if (!found) return null;
  const ext = name.split('.').pop()!;
  const stored = found.metadata.contentType;
  // Only ever one of our four image types, whatever the metadata says.
  const contentType = typeof stored === 'string' && ALLOWED[stored] === ext ? stored : EXT_TYPES[ext]!;
  return { data: found.data, contentType };
}
