/**
 * Development only (`astro dev`): remembers the dev server's `/_image` answers.
 *
 * In development Astro resizes and re-encodes an image (sharp, AVIF/WebP) on
 * every request to `/_image`, 0.3-5 s of CPU each on this 2-core machine, and
 * a fresh browser (every test file, every private window) asks again for the
 * same poster and portrait. The production build encodes each image once into
 * /_astro/, so caching the answer here changes nothing a visitor sees; an
 * edited or added image file clears the cache. Production builds never load
 * this file: it is wired in astro.config.mjs for the dev server only.
 */
import type { ServerResponse } from 'node:http';
import type { Plugin } from 'vite';

interface Stored {
  status: number;
  headers: Record<string, string | number | string[] | undefined>;
  body: Buffer;
}

const IMAGE_FILE = /\.(avif|gif|jpe?g|png|svg|webp)$/i;

type HeaderArg = Parameters<ServerResponse['writeHead']>[1];

/** Headers passed to writeHead() (Astro's image endpoint sets them that way) become setHeader() calls, so getHeaders() sees them. */
function keepHeaders(res: ServerResponse, headers: HeaderArg): void {
  if (!headers || typeof headers === 'string') return;
  if (!Array.isArray(headers)) {
    for (const [name, value] of Object.entries(headers)) if (value !== undefined) res.setHeader(name, value);
    return;
  }
  // Raw form: [name, value, name, value, ...] or [[name, value], ...].
  const flat = (headers as unknown[]).flat() as string[];
  for (let i = 0; i + 1 < flat.length; i += 2) res.setHeader(flat[i]!, flat[i + 1]!);
}

/** Collects what a response writes (headers and body), and hands the body over when the response ends. */
function capture(res: ServerResponse, done: (body: Buffer) => void): void {
  const writeHead = res.writeHead.bind(res);
  res.writeHead = (status: number, ...rest: unknown[]) => {
    const message = typeof rest[0] === 'string' ? rest[0] : undefined;
    keepHeaders(res, (message === undefined ? rest[0] : rest[1]) as HeaderArg);
    return message === undefined ? writeHead(status) : writeHead(status, message);
  };
  const chunks: Buffer[] = [];
  const keep = (chunk: unknown) => {
    if (typeof chunk === 'string' || chunk instanceof Uint8Array) chunks.push(Buffer.from(chunk));
  };
  const write = res.write.bind(res);
  const end = res.end.bind(res);
  res.write = ((chunk: unknown, ...rest: never[]) => {
    keep(chunk);
    return write(chunk, ...rest);
  }) as typeof res.write;
  res.end = ((chunk?: unknown, ...rest: never[]) => {
    keep(chunk);
    done(Buffer.concat(chunks));
    return end(chunk as never, ...rest);
  }) as typeof res.end;
}

export function devImageCache(maxEntries = 100): Plugin {
  const cache = new Map<string, Stored>();
  return {
    name: 'campaign:dev-image-cache',
    apply: 'serve',
    enforce: 'pre',
    configureServer(server) {
      const forget = (file: string) => {
        if (IMAGE_FILE.test(file)) cache.clear();
      };
      server.watcher.on('add', forget);
      server.watcher.on('change', forget);
      server.watcher.on('unlink', forget);
      server.middlewares.use((req, res, next) => {
        const key = req.url;
        if (req.method !== 'GET' || !key?.startsWith('/_image?')) return next();
        const hit = cache.get(key);
        if (hit) {
          res.statusCode = hit.status;
          for (const [name, value] of Object.entries(hit.headers)) {
            if (value !== undefined) res.setHeader(name, value);
          }
          res.end(hit.body);
          return;
        }
        capture(res, (body) => {
          if (res.statusCode !== 200 || body.length === 0) return;
          if (cache.size >= maxEntries) cache.delete(cache.keys().next().value!);
          cache.set(key, { status: res.statusCode, headers: res.getHeaders(), body });
        });
        next();
      });
    },
  };
}
