import { describe, expect, it } from 'vitest';

/*
 * `astro check` loads the project's config without the Netlify adapter (astro.config.mjs, docs/decisions/163-tests.md):
 * the adapter empties .netlify/build/ as it starts, and `npm test` runs the check beside the browser setup's build,
 * which then failed to find its own chunks. Every other command keeps the adapter.
 */

interface Config {
  adapter?: { name: string };
}

/** The config as `astro <argv>` loads it: each import below is a module of its own (the config reads argv as it loads). */
async function configUnder(argv: string[]): Promise<Config> {
  const saved = process.argv;
  process.argv = [process.execPath, 'astro', ...argv];
  try {
    const url = new URL(`../../astro.config.mjs?argv=${argv.join('+')}`, import.meta.url).href;
    return ((await import(/* @vite-ignore */ url)) as { default: Config }).default;
  } finally {
    process.argv = saved;
  }
}

describe('the adapter by astro command', () => {
  it('astro check has none; build and dev have the Netlify adapter', async () => {
    const check = await configUnder(['check']);
    const build = await configUnder(['build']);
    const dev = await configUnder(['dev', '--port', '5750']);
    expect(check.adapter).toBeUndefined();
    expect(build.adapter?.name).toBe('@astrojs/netlify');
    expect(dev.adapter?.name).toBe('@astrojs/netlify');
  });
});
