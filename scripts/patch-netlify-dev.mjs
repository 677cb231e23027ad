// @ts-check
/**
 * Works around a bug in Netlify's local function emulation (@netlify/functions-dev,
 * used by `astro dev`): for binary content types (multipart/form-data, images) it
 * reads the request body as UTF-8 text but flags it as base64, so the function
 * receives garbage and image uploads fail locally. Production is not affected.
 * This rewrites the one line to base64-encode the raw bytes, as the flag says.
 * Idempotent; if the code has changed upstream it only prints a note.
 * Runs from `postinstall`; see docs/decisions.md ("Local upload emulation").
 */
import { readFileSync, writeFileSync, existsSync } from 'node:fs';

const file = 'node_modules/@netlify/functions-dev/dist/main.js';
const before = 'const body = await request.text() || null;';
const after =
  'const body = shouldBase64Encode(request.headers.get("content-type") ?? "") ? Buffer.from(await request.arrayBuffer()).toString("base64") : await request.text() || null; /* patched by scripts/patch-netlify-dev.mjs */';

if (!existsSync(file)) {
  console.log('patch-netlify-dev: @netlify/functions-dev not installed; nothing to do');
} else {
  const source = readFileSync(file, 'utf8');
  if (source.includes('patched by scripts/patch-netlify-dev.mjs')) {
    console.log('patch-netlify-dev: already applied');
  } else if (source.includes(before)) {
    writeFileSync(file, source.replace(before, after));
    console.log('patch-netlify-dev: local multipart/binary request bodies fixed');
  } else {
    console.log(
      'patch-netlify-dev: pattern not found (upstream changed?); local uploads may not work under astro dev',
    );
  }
}
