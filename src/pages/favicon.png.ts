import type { APIRoute } from 'astro';
import sharp from 'sharp';
import source from '../assets/favicon.svg?raw';
import { FAVICON } from '../lib/favicon';

/**
 * The site icon as a static PNG (dist/favicon.png), drawn from the SVG at build
 * time. Not the SVG itself: Chromium builds an SVG icon as an image document of
 * its own on the page's main thread, a 6-16 ms task in every page load, where a
 * raster icon costs nothing (docs/decisions/162-public-pages-and-performance.md).
 */
export const prerender = true;

export const GET: APIRoute = async () => {
  const png = await sharp(Buffer.from(source), { density: 600 })
    .resize(FAVICON.size, FAVICON.size)
    .png()
    .toBuffer();
  return new Response(new Uint8Array(png), { headers: { 'Content-Type': 'image/png' } });
};
