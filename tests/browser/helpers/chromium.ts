import { existsSync } from 'node:fs';

/**
 * Debian's Chromium (never a downloaded browser) and the flags this closed machine needs (TOOLCHAIN.md).
 * The tests drive Debian's headless shell (package chromium-headless-shell, which `.ci/run` installs):
 * the same engine without the full browser's windowing layer, a fifth less CPU for the browser
 * suite on this 2-core machine (docs/benchmarks.md, "Development loop"). Without it, full Chromium.
 */
export const CHROMIUM_PATH = ['/usr/bin/chromium-headless-shell', '/usr/bin/chromium'].find((path) =>
  existsSync(path),
)!;

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
