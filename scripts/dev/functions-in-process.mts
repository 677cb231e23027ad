/**
 * Development only (`astro dev`): serves the Netlify Functions in
 * netlify/functions/ from their modules, loaded once through the dev server's
 * SSR module runner, instead of Netlify's emulator, which starts a fresh worker
 * thread and re-imports the whole bundled function for every request (2-4 s a
 * call here, 8 s for a text sign-up; measured in docs/benchmarks.md).
 *
 * What stays as on Netlify: the same handler modules and `config` routing
 * (scripts/dev/function-routes.mts: path, excludedPath, method), the same
 * Blobs (the emulator's local store, whose context the dev server process
 * already holds), responses passed through untouched (Netlify applies no
 * header rules to function responses), and the client IP taken from the
 * connection, never from a client-sent X-Forwarded-For. Edited function code
 * is picked up on the next request (the runner follows Vite's module graph).
 * Production builds never load this file: it is wired in astro.config.mjs for
 * the dev server only.
 */
import { randomUUID } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join, resolve } from 'node:path';
import { Readable } from 'node:stream';
import type { Context } from '@netlify/functions';
import type { Connect, Plugin, ViteDevServer } from 'vite';
import { matchRoute, type RouteConfig } from './function-routes.mts';

interface FunctionModule {
  default: (req: Request, context: Context) => Promise<Response> | Response;
  config?: RouteConfig;
}

interface Runner {
  import(id: string): Promise<unknown>;
}

interface LoadedFunction {
  name: string;
  file: string;
  config: RouteConfig;
}

/** The platform IP of a connection: the socket's peer, IPv4-mapped addresses unwrapped. */
export function socketIp(req: IncomingMessage): string {
  const raw = req.socket.remoteAddress ?? '';
  return raw.startsWith('::ffff:') ? raw.slice(7) : raw || 'unknown';
}

function runnerOf(server: ViteDevServer): Runner {
  const env = server.environments.ssr as unknown as { runner?: Runner };
  if (!env.runner) throw new Error('functions-in-process: the dev server has no runnable SSR environment');
  return env.runner;
}

/** Imports every function module once (their configs decide routing). */
async function loadFunctions(server: ViteDevServer, dir: string): Promise<LoadedFunction[]> {
  const files = (await readdir(dir)).filter((f) => /\.(mts|mjs|ts|js)$/.test(f)).sort();
  const runner = runnerOf(server);
  const out: LoadedFunction[] = [];
  for (const f of files) {
    const file = join(dir, f);
    const mod = (await runner.import(file)) as FunctionModule;
    if (typeof mod.default !== 'function' || !mod.config?.path) continue;
    out.push({ name: f.replace(/\.[^.]+$/, ''), file, config: mod.config });
  }
  return out;
}

function toWebRequest(req: IncomingMessage, url: URL): Request {
  const headers = new Headers();
  for (const [k, v] of Object.entries(req.headers)) {
    if (k.startsWith(':') || v === undefined) continue;
    headers.set(k, Array.isArray(v) ? v.join(', ') : v);
  }
  const method = (req.method ?? 'GET').toUpperCase();
  const hasBody = method !== 'GET' && method !== 'HEAD';
  return new Request(url, {
    method,
    headers,
    body: hasBody ? (Readable.toWeb(req) as ReadableStream<Uint8Array>) : null,
    // @ts-expect-error Node's fetch needs duplex for a streamed body; not in the DOM types.
    duplex: 'half',
  });
}

/** Netlify's function context, with what a function (not an edge function) can use. */
export function createContext(req: IncomingMessage, url: URL, params: Record<string, string>) {
  const pending: Promise<unknown>[] = [];
  const setCookies: string[] = [];
  const cookieHeader = req.headers.cookie ?? '';
  const siteUrl = process.env.SITE_URL || url.origin;
  const edgeOnly = () => Promise.reject(new Error('context.next() is only available in edge functions'));
  const context = {
    account: { id: '' },
    cookies: {
      get(name: string) {
        for (const part of cookieHeader.split(';')) {
          const i = part.indexOf('=');
          if (i > 0 && part.slice(0, i).trim() === name) return part.slice(i + 1).trim();
        }
        return undefined;
      },
      set(input: string | { name: string; value: string }, value?: string) {
        const [n, v] = typeof input === 'string' ? [input, value ?? ''] : [input.name, input.value];
        setCookies.push(`${n}=${v}; Path=/`);
      },
      delete(input: string | { name: string }) {
        const n = typeof input === 'string' ? input : input.name;
        setCookies.push(`${n}=; Path=/; Expires=Thu, 01 Jan 1970 00:00:00 GMT`);
      },
    },
    deploy: { context: 'dev', id: '0', published: false },
    geo: {},
    ip: socketIp(req),
    json: (input: unknown) => Response.json(input),
    log: (...data: unknown[]) => console.log(...data),
    next: edgeOnly,
    params,
    rewrite: edgeOnly,
    requestId: randomUUID(),
    server: { region: 'dev' },
    site: { id: '0', name: 'local', url: siteUrl },
    url,
    waitUntil: (p: Promise<unknown>) => {
      pending.push(p.catch((err: unknown) => console.error('[functions] waitUntil task failed', err)));
    },
  };
  return { context: context as unknown as Context, setCookies, settled: () => Promise.all(pending) };
}

async function sendWebResponse(res: ServerResponse, response: Response, extraCookies: string[]) {
  res.statusCode = response.status;
  for (const [k, v] of response.headers) {
    if (k === 'set-cookie') continue;
    res.setHeader(k, v);
  }
  const cookies = [...response.headers.getSetCookie(), ...extraCookies];
  if (cookies.length > 0) res.setHeader('set-cookie', cookies);
  const body = response.body ? Buffer.from(await response.arrayBuffer()) : null;
  res.end(body);
}

export interface FunctionsInProcessOptions {
  /** Folder of the function entry files (default netlify/functions). */
  dir?: string;
  /** The Netlify adapter's `devFeatures` (astro.config.mjs), so the emulation we keep is the same. */
  devFeatures?: { images?: boolean; environmentVariables?: boolean; edgeFunctions?: boolean };
}

/**
 * Netlify's dev middleware (@netlify/vite-plugin, added by the Astro adapter) emulates functions
 * too: on the first request of any kind it bundles every function with zip-it-and-ship-it (a minute
 * of CPU on this 2-core machine before the first page answers; measured in docs/benchmarks.md), to
 * route /api/* calls this plugin already answers. The adapter has no switch for that, so the
 * middleware is swapped for one built with the same features and functions off. Blobs, headers,
 * redirects and static files stay emulated by Netlify's own code.
 */
async function withoutFunctionsEmulation(
  plugins: readonly Plugin[],
  devFeatures: NonNullable<FunctionsInProcessOptions['devFeatures']>,
): Promise<boolean> {
  const netlifyPlugin = plugins.find((p) => p.name === 'vite-plugin-netlify');
  if (!netlifyPlugin) return false;
  const { default: netlify } = await import('@netlify/vite-plugin');
  const [replacement] = netlify({
    images: { enabled: devFeatures.images ?? true },
    environmentVariables: { enabled: devFeatures.environmentVariables ?? false },
    edgeFunctions: { enabled: devFeatures.edgeFunctions ?? true },
    functions: { enabled: false },
  }) as Plugin[];
  if (!replacement?.configureServer) return false;
  (netlifyPlugin as { configureServer?: Plugin['configureServer'] }).configureServer =
    replacement.configureServer;
  return true;
}

export function functionsInProcess(options: FunctionsInProcessOptions = {}): Plugin {
  return {
    name: 'campaign:functions-in-process',
    apply: 'serve',
    // Before @netlify/vite-plugin's middleware, so its per-request workers never run.
    enforce: 'pre',
    async configResolved(config) {
      if (!(await withoutFunctionsEmulation(config.plugins, options.devFeatures ?? {}))) {
        config.logger.warn('[functions] Netlify dev middleware not found: its function emulation stays on');
      }
    },
    configureServer(server) {
      const dir = resolve(server.config.root, options.dir ?? 'netlify/functions');
      let routes: Promise<LoadedFunction[]> | null = null;
      const table = () => {
        routes ??= loadFunctions(server, dir).catch((err: unknown) => {
          routes = null;
          throw err;
        });
        return routes;
      };
      // A new, removed or edited entry file may change the routes: re-read them on the next request.
      const reset = (file: string) => {
        if (resolve(file).startsWith(dir)) routes = null;
      };
      server.watcher.on('add', reset);
      server.watcher.on('unlink', reset);
      server.watcher.on('change', reset);

      const middleware: Connect.NextHandleFunction = (req, res, next) => {
        const url = new URL(req.url ?? '/', `http://${req.headers.host ?? 'localhost'}`);
        // Every function of this site lives under /api/; anything else is a page or a file.
        if (!url.pathname.startsWith('/api/')) return next();
        void (async () => {
          const fns = await table();
          const method = (req.method ?? 'GET').toUpperCase();
          let found: { fn: LoadedFunction; params: Record<string, string> } | null = null;
          for (const fn of fns) {
            const params = matchRoute(fn.config, url.pathname, method);
            if (params) {
              found = { fn, params };
              break;
            }
          }
          if (!found) return next();
          const mod = (await runnerOf(server).import(found.fn.file)) as FunctionModule;
          const { context, setCookies, settled } = createContext(req, url, found.params);
          if (found.fn.config.background) {
            // As Netlify runs a background function: 202 at once, the function after (its answer is dropped).
            const request = toWebRequest(req, url);
            const body = await request.arrayBuffer();
            res.statusCode = 202;
            res.end();
            const detached = new Request(url, {
              method: request.method,
              headers: request.headers,
              body: body.byteLength ? body : null,
            });
            void Promise.resolve(mod.default(detached, context))
              .then(() => settled())
              .catch((err: unknown) => console.error(`[functions] background ${url.pathname} failed`, err));
            return;
          }
          const response = await mod.default(toWebRequest(req, url), context);
          await sendWebResponse(res, response, setCookies);
          await settled();
        })().catch((err: unknown) => {
          console.error(`[functions] ${req.method} ${url.pathname} failed`, err);
          if (!res.headersSent) {
            res.statusCode = 500;
            res.setHeader('content-type', 'text/plain; charset=utf-8');
            res.end('Function invocation failed (see the dev server log)');
          } else res.end();
        });
      };
      server.middlewares.use(middleware);
      // Load the functions while the server starts, so the first API call is not the slow one.
      server.httpServer?.once('listening', () => {
        table().catch((err: unknown) => console.error('[functions] could not load the functions', err));
      });
    },
  };
}
