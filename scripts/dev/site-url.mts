/**
 * Development only (`astro dev`): when SITE_URL is not set, the API's links (password reset, RSVP cancel, the
 * text-message webhook's signed URL) point at the origin this dev server actually serves, not at a fixed
 * http://localhost:4321: `npm run dev -- --port 5750`, or a port Vite moved to because the asked one was taken
 * (docs/decisions/164-dev-server-and-local-mode.md). Set before the first request, so every session and link of
 * this run agrees. A SITE_URL the developer set is kept.
 */
import type { AddressInfo } from 'node:net';
import type { Plugin } from 'vite';

/** The port `astro dev --port N` was given (the last one wins, as in Astro's own parsing), if any. */
export function portFromArgv(argv: readonly string[] = process.argv): number | undefined {
  let port: number | undefined;
  argv.forEach((arg, i) => {
    const value =
      arg === '--port' ? argv[i + 1] : arg.startsWith('--port=') ? arg.slice('--port='.length) : null;
    if (value != null && /^\d{1,5}$/.test(value)) port = Number(value);
  });
  return port;
}

/** The origin local links use for a dev server listening on `port`. */
export const localOrigin = (port: number) => `http://localhost:${port}`;

export function localSiteUrl(): Plugin {
  const userSet = Boolean(process.env.SITE_URL);
  return {
    name: 'campaign:local-site-url',
    apply: 'serve',
    configureServer(server) {
      if (userSet) return;
      server.httpServer?.once('listening', () => {
        const address = server.httpServer?.address() as AddressInfo | null;
        if (!address || typeof address === 'string') return;
        process.env.SITE_URL = localOrigin(address.port);
      });
    },
  };
}
