import type { AstroIntegration } from 'astro';
import {
  formatLaunchItems,
  isProductionBuild,
  launchItems,
  type CalendarCheck,
  type LaunchContent,
  type LaunchEnv,
} from '../../src/lib/server/launch-check.ts';
import { readLaunchContent } from '../../src/lib/server/launch-content.ts';

/** A production build refused by the launch gate; its message is the list of what is missing. */
export class LaunchGateError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'LaunchGateError';
  }
}

/**
 * What the build does before it starts (docs/decisions/085-launch-gate.md):
 * a production build with anything missing throws the list; any other build
 * only warns with it, so deploy previews and local builds keep their
 * placeholders. Returns the list either way.
 */
export function checkBuild(content: LaunchContent, env: LaunchEnv, warn: (message: string) => void) {
  const items = launchItems(content, env);
  if (items.length === 0) return items;
  const report = formatLaunchItems(items);
  if (isProductionBuild(env)) throw new LaunchGateError(`Production build refused. ${report}`);
  warn(report);
  return items;
}

/**
 * `npm run launch-check` (scripts/launch-check.mts): prints the list and returns the exit code, 1 while anything is
 * missing. Unlike the build it also judges the election calendar (`calendar`: the site's, read through
 * src/lib/server/election/calendar.ts, and the moment to judge it at).
 */
export function launchCheckCli(
  content: LaunchContent,
  env: LaunchEnv,
  print: (message: string) => void,
  calendar?: CalendarCheck,
): number {
  const items = launchItems(content, env, calendar);
  print(formatLaunchItems(items));
  return items.length === 0 ? 0 : 1;
}

/** The Astro integration that runs the check when `astro build` starts (astro.config.mjs). */
export function launchGate(): AstroIntegration {
  return {
    name: 'campaign-launch-gate',
    hooks: {
      'astro:build:start': async ({ logger }) => {
        checkBuild(await readLaunchContent(), process.env, (m) => logger.warn(m));
      },
    },
  };
}
