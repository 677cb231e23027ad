import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { localSiteUrl, portFromArgv } from '../../scripts/dev/site-url.mts';

// docs/decisions/164-dev-server-and-local-mode.md
describe('npm run dev -- --port N', () => {
  const saved = process.env.SITE_URL;
  afterEach(() => {
    if (saved === undefined) delete process.env.SITE_URL;
    else process.env.SITE_URL = saved;
  });

  it('the dev script pins no port, so the one after -- is the only one astro dev gets', () => {
    const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: Record<string, string> };
    expect(pkg.scripts.dev).not.toMatch(/--port/);
    expect(pkg.scripts.dev).toMatch(/astro dev\b/);
  });

  it('reads the port astro dev was given', () => {
    expect(portFromArgv(['node', 'astro', 'dev', '--port', '5750'])).toBe(5750);
    expect(portFromArgv(['node', 'astro', 'dev', '--port=5751'])).toBe(5751);
    expect(portFromArgv(['node', 'astro', 'dev', '--port', '4321', '--port', '5752'])).toBe(5752);
    expect(portFromArgv(['node', 'astro', 'dev'])).toBeUndefined();
    expect(portFromArgv(['node', 'astro', 'dev', '--port', 'x'])).toBeUndefined();
  });

  it('local links follow the port actually served, unless SITE_URL was set', async () => {
    for (const preset of [undefined, 'https://staging.example.org']) {
      if (preset === undefined) delete process.env.SITE_URL;
      else process.env.SITE_URL = preset;
      const plugin = localSiteUrl();
      const httpServer = createServer();
      const configure = plugin.configureServer as (server: unknown) => void;
      configure({ httpServer });
      await new Promise<void>((r) => httpServer.listen(0, '127.0.0.1', r));
      const { port } = httpServer.address() as AddressInfo;
      expect(process.env.SITE_URL).toBe(preset ?? `http://localhost:${port}`);
      await new Promise((r) => httpServer.close(r));
    }
  });
});
