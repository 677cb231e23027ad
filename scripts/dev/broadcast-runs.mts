/**
 * Development only (`astro dev`): the broadcast delivery job run right after a staff action that gives it work
 * (prepare, send, resume: POST /api/admin/broadcasts/<id>/<action> answered 2xx), and again a second apart while
 * a broadcast is still being counted, for LOCAL_RUNS_MS at most (docs/decisions/152-broadcasts.md,
 * "Local mode"). On Netlify the scheduled worker (netlify/functions/broadcasts-worker.mts) takes it up within a
 * minute; here a local send starts within a second. A dev script, not request handling: the production handler
 * (src/lib/server/broadcasts/staff.ts) has no dev-only branch. On with every dev server, the browser tests' too
 * (their CAMPAIGN_DEV_SCHEDULE=off stops only the clock-driven schedule). Production builds never load this file.
 */
import type { Plugin, ViteDevServer } from 'vite';

/** How long the runs go on after an action while a count is unfinished (a large local list). */
const LOCAL_RUNS_MS = 5 * 60_000;
/** The staff actions after which the job has work. */
const ACTION = /^\/api\/admin\/broadcasts\/\d+\/(prepare|send|resume)\/?$/;

interface Runner {
  import(id: string): Promise<unknown>;
}
interface Engine {
  runBroadcasts(o: { deadline: number }): Promise<unknown>;
}
interface Repo {
  listBroadcasts(): Promise<{ status: string }[]>;
}

/** The job, through the dev server's SSR module runner (the same modules and Blobs as the functions it serves). */
function localRuns(server: ViteDevServer): () => void {
  const root = server.config.root;
  const load = async () => {
    const runner = (server.environments.ssr as unknown as { runner?: Runner }).runner;
    if (!runner) throw new Error('broadcast-runs: the dev server has no runnable SSR environment');
    const engine = (await runner.import(`${root}/src/lib/server/broadcasts/engine.ts`)) as Engine;
    const repo = (await runner.import(`${root}/src/lib/server/broadcasts/repo.ts`)) as Repo;
    return { engine, repo };
  };
  return () => {
    const until = Date.now() + LOCAL_RUNS_MS;
    void (async () => {
      const { engine, repo } = await load();
      const preparing = async () => (await repo.listBroadcasts()).some((b) => b.status === 'preparing');
      for (;;) {
        await engine.runBroadcasts({ deadline: Date.now() + 20_000 });
        if (Date.now() > until || !(await preparing())) return;
        await new Promise((r) => setTimeout(r, 1000));
      }
    })().catch((err: unknown) => console.error('[broadcasts] local run failed', err));
  };
}

export function broadcastRunsInDev(): Plugin {
  return {
    name: 'campaign:broadcast-runs',
    apply: 'serve',
    // Before the functions' middleware, so the response of the action is seen when it finishes.
    enforce: 'pre',
    configureServer(server) {
      const run = localRuns(server);
      server.middlewares.use((req, res, next) => {
        const path = new URL(req.url ?? '/', 'http://localhost').pathname;
        if (req.method === 'POST' && ACTION.test(path))
          res.once('finish', () => {
            if (res.statusCode >= 200 && res.statusCode < 300) run();
          });
        next();
      });
    },
  };
}
