/**
 * Development only (`astro dev`): runs the scheduled functions of netlify/functions/ on their own schedules, as
 * Netlify does in production (docs/decisions/164-dev-server-and-local-mode.md). Without it nothing ran
 * them locally: a broadcast scheduled two minutes ahead stayed "Scheduled", reminders were never sent and the stage
 * job never looked at the calendar. Each minute (UTC, like Netlify's cron) every function whose `config.schedule`
 * matches is called in the dev server's process, through the same SSR module runner as the API
 * (scripts/dev/functions-in-process.mts), with the body Netlify posts (`{"next_run": …}`); a run still going is not
 * started again. Each run logs one line: `[schedule] broadcasts-worker 200 in 84 ms`.
 *
 * `CAMPAIGN_DEV_SCHEDULE=off` turns it off (the browser tests do: they drive the jobs themselves, so nothing runs
 * under them by the clock). Production builds never load this file.
 */
import { readdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { Context } from '@netlify/functions';
import type { Plugin, ViteDevServer } from 'vite';

const NAMED: Record<string, string> = {
  '@yearly': '0 0 1 1 *',
  '@annually': '0 0 1 1 *',
  '@monthly': '0 0 1 * *',
  '@weekly': '0 0 * * 0',
  '@daily': '0 0 * * *',
  '@midnight': '0 0 * * *',
  '@hourly': '0 * * * *',
};

const RANGES: [number, number][] = [
  [0, 59], // minute
  [0, 23], // hour
  [1, 31], // day of the month
  [1, 12], // month
  [0, 7], // day of the week (0 and 7 are Sunday)
];

/** The values one cron field allows, or null when the field is not valid. */
function fieldValues(field: string, [min, max]: [number, number]): Set<number> | null {
  const out = new Set<number>();
  for (const part of field.split(',')) {
    const m = /^(\*|(\d+)(?:-(\d+))?)(?:\/(\d+))?$/.exec(part);
    if (!m) return null;
    const step = m[4] ? Number(m[4]) : 1;
    const from = m[1] === '*' ? min : Number(m[2]);
    // "5/15": from 5 to the end, every 15; "5": 5 alone.
    const to = m[1] === '*' ? max : m[3] ? Number(m[3]) : m[4] ? max : from;
    if (step < 1 || from < min || to > max || from > to) return null;
    for (let v = from; v <= to; v += step) out.add(v);
  }
  return out;
}

/**
 * Whether a cron expression (five fields, or @hourly and the other names Netlify accepts) is due at `when`'s
 * UTC minute. Day of the month and day of the week follow cron's rule: when both are restricted, either matches.
 * Throws on an expression it cannot read, so a typo in a schedule is loud.
 */
export function cronMatches(expression: string, when: Date): boolean {
  const expr = NAMED[expression.trim()] ?? expression.trim();
  const fields = expr.split(/\s+/);
  if (fields.length !== 5) throw new Error(`Not a cron expression: "${expression}"`);
  const sets = fields.map((f, i) => fieldValues(f, RANGES[i]!));
  if (sets.some((s) => s === null)) throw new Error(`Not a cron expression: "${expression}"`);
  const [minute, hour, dom, month, dow] = sets as Set<number>[];
  const day = when.getUTCDay();
  const domMatch = dom!.has(when.getUTCDate());
  const dowMatch = dow!.has(day) || (day === 0 && dow!.has(7));
  const dayMatch =
    fields[2] !== '*' && fields[4] !== '*' ? domMatch || dowMatch : fields[2] !== '*' ? domMatch : dowMatch;
  return (
    minute!.has(when.getUTCMinutes()) &&
    hour!.has(when.getUTCHours()) &&
    month!.has(when.getUTCMonth() + 1) &&
    dayMatch
  );
}

/** The next minute boundary at or after `ms` (a cron's resolution). */
export const nextMinute = (ms: number) => Math.floor(ms / 60_000) * 60_000 + 60_000;

export interface ScheduledFunction {
  name: string;
  schedule: string;
  /** Runs the function once; its HTTP status. */
  run: (nextRun: Date) => Promise<number>;
}

/**
 * The scheduler's decisions, apart from timers: `tick(minute)` starts every function due at that minute that is
 * not still running, and answers the names it started.
 */
export class DevScheduler {
  private readonly running = new Set<string>();
  private readonly load: () => Promise<ScheduledFunction[]>;
  private readonly log: (line: string) => void;
  // Plain fields, not parameter properties: astro.config.mjs imports this file with Node's type stripping.
  constructor(
    load: () => Promise<ScheduledFunction[]>,
    log: (line: string) => void = (line) => console.info(line),
  ) {
    this.load = load;
    this.log = log;
  }

  async tick(minute: Date): Promise<{ started: string[]; runs: Promise<void>[] }> {
    const started: string[] = [];
    const runs: Promise<void>[] = [];
    for (const fn of await this.load()) {
      if (!cronMatches(fn.schedule, minute)) continue;
      if (this.running.has(fn.name)) {
        this.log(`[schedule] ${fn.name} skipped: the last run is still going`);
        continue;
      }
      this.running.add(fn.name);
      started.push(fn.name);
      const began = Date.now();
      runs.push(
        fn
          .run(new Date(nextMinute(minute.getTime())))
          .then((status) => this.log(`[schedule] ${fn.name} ${status} in ${Date.now() - began} ms`))
          .catch((err: unknown) => this.log(`[schedule] ${fn.name} failed: ${(err as Error).message}`))
          .finally(() => this.running.delete(fn.name)),
      );
    }
    return { started, runs };
  }

  /** The scheduled functions found. */
  functions(): Promise<ScheduledFunction[]> {
    return this.load();
  }
}

interface FunctionModule {
  default: (req: Request, context: Context) => Promise<Response> | Response;
  config?: { schedule?: string };
}

interface Runner {
  import(id: string): Promise<unknown>;
}

async function scheduledFunctions(server: ViteDevServer, dir: string): Promise<ScheduledFunction[]> {
  const runner = (server.environments.ssr as unknown as { runner?: Runner }).runner;
  if (!runner) throw new Error('scheduled-functions: the dev server has no runnable SSR environment');
  const files = (await readdir(dir)).filter((f) => /\.(mts|mjs|ts|js)$/.test(f)).sort();
  const out: ScheduledFunction[] = [];
  for (const f of files) {
    const file = join(dir, f);
    const mod = (await runner.import(file)) as FunctionModule;
    const schedule = mod.config?.schedule;
    if (typeof mod.default !== 'function' || !schedule) continue;
    const name = f.replace(/\.[^.]+$/, '');
    out.push({
      name,
      schedule,
      async run(nextRun) {
        // Imported again each run: an edited function is picked up, as the API's are.
        const fresh = (await runner.import(file)) as FunctionModule;
        const url = new URL(`/.netlify/functions/${name}`, 'http://localhost');
        const req = new Request(url, {
          method: 'POST',
          body: JSON.stringify({ next_run: nextRun.toISOString() }),
        });
        const context = { params: {}, url, waitUntil: () => {}, log: console.log } as unknown as Context;
        return (await fresh.default(req, context)).status;
      },
    });
  }
  return out;
}

export function scheduledFunctionsInDev(options: { dir?: string } = {}): Plugin {
  return {
    name: 'campaign:scheduled-functions',
    apply: 'serve',
    configureServer(server) {
      if (process.env.CAMPAIGN_DEV_SCHEDULE === 'off') {
        server.config.logger.info('[schedule] scheduled functions are off (CAMPAIGN_DEV_SCHEDULE=off)');
        return;
      }
      const dir = resolve(server.config.root, options.dir ?? 'netlify/functions');
      let list: Promise<ScheduledFunction[]> | null = null;
      const reset = (file: string) => {
        if (resolve(file).startsWith(dir)) list = null;
      };
      server.watcher.on('add', reset);
      server.watcher.on('unlink', reset);
      const scheduler = new DevScheduler(() => {
        list ??= scheduledFunctions(server, dir).catch((err: unknown) => {
          list = null;
          throw err;
        });
        return list;
      });
      let timer: NodeJS.Timeout | undefined;
      const arm = () => {
        const at = nextMinute(Date.now());
        timer = setTimeout(() => {
          void scheduler
            .tick(new Date(at))
            .catch((err: unknown) => console.error('[schedule] could not run the scheduled functions', err));
          arm();
        }, at - Date.now());
        timer.unref();
      };
      server.httpServer?.once('listening', () => {
        void scheduler.functions().then(
          (fns) =>
            server.config.logger.info(
              `[schedule] running on their schedules (UTC): ${fns.map((f) => `${f.name} ${f.schedule}`).join(', ')}`,
            ),
          (err: unknown) => console.error('[schedule] could not load the scheduled functions', err),
        );
        arm();
      });
      server.httpServer?.once('close', () => clearTimeout(timer));
    },
  };
}
