/**
 * Run as a child process by validators.test.ts after the production build (global-setup.ts):
 * answers each request it is given (JSON on stdin: { pages: string[] }) with the response
 * production would give, printed as JSON on stdout, for the Observatory's CSP verdict on real
 * responses of every kind:
 * - on-demand pages (both languages, every state, the staff preview with a staff session, an
 *   unknown path) from the built on-demand function, .netlify/v1/functions/ssr/ssr.mjs (the copy the
 *   global setup keeps: prod-server.ts BUILT_FUNCTION_COPY), as js-report runs it
 *   (scripts/bench/js-report.mts);
 * - API answers (public JSON, staff JSON, a refusal, a feed) and an uploaded image, from the
 *   function handlers Netlify bundles (netlify/functions/), called as the platform calls them;
 * on a throwaway local Blobs store with the seeded demo content and one staff account.
 * A process of its own: the store, APP_ENV and the bundle's module state stay out of the test runner.
 *
 * With `--serve` it answers nothing on stdin: it serves the same production code over HTTP instead
 * (every request a function's `config.path` matches to that function, the rest to the on-demand
 * function), prints one JSON line { url, cookie } and runs until killed. csp.test.ts puts it behind
 * the production build's static files (helpers/prod-server.ts `fallback`), so on-demand pages load
 * in Chromium under the policy production sends.
 */
import { createServer } from 'node:http';
import { readdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Context } from '@netlify/functions';
import { benchBlobs } from '../../../scripts/bench/serve.mts';
import { ARCHIVE_ARTICLES } from './pages.ts';
import { BUILT_FUNCTION_COPY } from './prod-server.ts';
import { matchRoute, type RouteConfig } from '../../../scripts/dev/function-routes.mts';

interface Answer {
  kind: string;
  path: string;
  status: number;
  contentType: string;
  csp: string | null;
  /** <meta http-equiv="Content-Security-Policy"> policies in an HTML body. */
  meta: string[];
}

type Handler = (req: Request, context: Context) => Promise<Response>;
const ORIGIN = 'http://localhost:4321';

const SERVE = process.argv.includes('--serve');
const input = SERVE
  ? { pages: [] }
  : (JSON.parse(
      await new Promise<string>((r) => {
        let s = '';
        process.stdin.on('data', (c) => (s += String(c)));
        process.stdin.on('end', () => r(s));
      }),
    ) as { pages: string[] });

const stopBlobs = await benchBlobs();
const answers: Answer[] = [];
try {
  process.env.APP_ENV = 'development';
  const { seedLocalStore } = await import('../../../scripts/lib/seed.mts');
  await seedLocalStore();
  // /blog/page/2 with articles, as on the dev server (helpers/pages.ts fillBlogArchive).
  const { createArticle } = await import('../../../src/lib/server/content/articles.ts');
  const { ArticleInputSchema } = await import('../../../src/lib/schemas/article.ts');
  for (const input of ARCHIVE_ARTICLES) await createArticle(ArticleInputSchema.parse(input));
  const { createUser } = await import('../../../src/lib/server/auth/users.ts');
  await createUser({
    username: 'csp-staff',
    email: 'csp-staff@example.org',
    password: 'csp-staff-password-1',
    role: 'admin',
    firstName: 'Csp',
    lastName: 'Staff',
  });
  const context = (params: Record<string, string> = {}) =>
    ({
      ip: '127.0.0.1',
      params,
      geo: {},
      site: {},
      deploy: {},
      account: {},
      server: {},
      cookies: { get: () => undefined, set: () => {}, delete: () => {} },
      waitUntil: () => {},
    }) as unknown as Context;
  const fn = async (name: string) =>
    ((await import(`../../../netlify/functions/${name}.mts`)) as { default: Handler }).default;
  const same = { Origin: ORIGIN, 'Sec-Fetch-Site': 'same-origin' };

  const login = await (
    await fn('auth-login')
  )(
    new Request(`${ORIGIN}/api/auth/login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...same },
      body: JSON.stringify({ username: 'csp-staff', password: 'csp-staff-password-1' }),
    }),
    context(),
  );
  if (login.status !== 200) throw new Error(`staff sign-in: ${login.status} ${await login.text()}`);
  const cookie = login.headers
    .getSetCookie()
    .map((c) => c.split(';')[0]!)
    .join('; ');

  const record = async (kind: string, path: string, res: Response) => {
    const contentType = res.headers.get('content-type') ?? '';
    const body = contentType.includes('html') ? await res.text() : '';
    const meta = [...body.matchAll(/<meta http-equiv="Content-Security-Policy" content="([^"]*)"/gi)].map(
      (m) =>
        m[1]!
          .replace(/&#39;/g, "'")
          .replace(/&quot;/g, '"')
          .replace(/&amp;/g, '&'),
    );
    answers.push({
      kind,
      path,
      status: res.status,
      contentType,
      csp: res.headers.get('content-security-policy'),
      meta,
    });
  };

  const ssr = (await import(
    pathToFileURL(resolve(BUILT_FUNCTION_COPY, 'v1/functions/ssr/ssr.mjs')).href
  )) as {
    default: Handler;
  };
  if (SERVE) await serve(ssr.default, cookie, context);
  const { publicArticles } = await import('../../../src/lib/server/content/articles.ts');
  const [article] = await publicArticles();
  const { publicEvents } = await import('../../../src/lib/server/content/events-public.ts');
  const [event] = await publicEvents();
  for (const raw of input.pages) {
    // The pages' examples name the dev server's records; this store has the seeded ones.
    const path = raw.replace(/^(\/admin\/preview\?id=)\d+$/, `$1${article!.id}`);
    const staff = path.startsWith('/admin/preview');
    const res = await ssr.default(
      new Request(`${ORIGIN}${path}`, { headers: staff ? { cookie } : {} }),
      context(),
    );
    await record(staff ? 'staff preview' : 'on-demand page', path, res);
  }
  // (robots.txt and the icon are files of the build: production never asks this function for them.)
  for (const path of ['/rss.xml', '/sitemap.xml', '/events.ics', `/events/${event!.id}/calendar.ics`])
    await record('feed or file', path, await ssr.default(new Request(`${ORIGIN}${path}`), context()));
  await record(
    'unknown path',
    '/no-such-page',
    await ssr.default(new Request(`${ORIGIN}/no-such-page`), context()),
  );
  await record(
    'unknown Spanish path',
    '/es/no-existe',
    await ssr.default(new Request(`${ORIGIN}/es/no-existe`), context()),
  );

  const get = async (kind: string, name: string, path: string, headers: Record<string, string> = {}) =>
    record(kind, path, await (await fn(name))(new Request(`${ORIGIN}${path}`, { headers }), context()));
  await get('API JSON', 'news', '/api/news');
  await get('API JSON', 'events', '/api/events');
  await get('staff API JSON', 'admin-news', '/api/admin/news', { cookie });
  await get('API refusal', 'admin-news', '/api/admin/news');

  const form = new FormData();
  const png = Buffer.from(
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
    'base64',
  );
  form.set('image', new Blob([png], { type: 'image/png' }), 'pixel.png');
  const uploaded = await (
    await fn('upload')
  )(
    new Request(`${ORIGIN}/api/upload`, { method: 'POST', headers: { cookie, ...same }, body: form }),
    context(),
  );
  const { imageUrl } = (await uploaded.clone().json()) as { imageUrl: string };
  await record('upload answer', '/api/upload', uploaded);
  const name = imageUrl.split('/').pop()!;
  await record(
    'uploaded image',
    imageUrl,
    await (
      await fn('uploads')
    )(new Request(`${ORIGIN}${imageUrl}`), context({ name })),
  );
} finally {
  await stopBlobs();
}
process.stdout.write(JSON.stringify(answers));
process.exit(0);

/** Serves the functions and the on-demand function over HTTP until the process is killed. */
async function serve(
  ssr: Handler,
  cookie: string,
  context: (params?: Record<string, string>) => Context,
): Promise<never> {
  const functions: { config: RouteConfig; handler: Handler }[] = [];
  for (const file of readdirSync(resolve('netlify/functions'))
    .filter((f) => f.endsWith('.mts'))
    .sort()) {
    const mod = (await import(`../../../netlify/functions/${file}`)) as {
      default: Handler;
      config?: RouteConfig;
    };
    if (mod.config?.path) functions.push({ config: mod.config, handler: mod.default });
  }
  const server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', ORIGIN);
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      const headers = new Headers();
      for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') headers.set(k, v);
      const method = req.method ?? 'GET';
      const request = new Request(url, {
        method,
        headers,
        body: method === 'GET' || method === 'HEAD' ? undefined : Buffer.concat(chunks),
      });
      let answer: Response | undefined;
      for (const f of functions) {
        const params = matchRoute(f.config, url.pathname, method);
        if (params) {
          answer = await f.handler(request, context(params));
          break;
        }
      }
      answer ??= await ssr(request, context());
      const out: Record<string, string | string[]> = {};
      answer.headers.forEach((v, k) => {
        if (k !== 'set-cookie') out[k] = v;
      });
      const cookies = answer.headers.getSetCookie();
      if (cookies.length) out['set-cookie'] = cookies;
      res.writeHead(answer.status, out);
      res.end(Buffer.from(await answer.arrayBuffer()));
    })().catch((err: unknown) => {
      console.error(err);
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${port}`, cookie })}\n`);
  return new Promise<never>(() => undefined);
}
