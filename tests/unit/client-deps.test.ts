import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { clientDependencies } from '../../scripts/dev/client-deps.mjs';

/*
 * The dev server pre-bundles the browser's dependencies from this list
 * (astro.config.mjs); a missing one makes Vite re-optimise mid-session and
 * break pages that are open (504 "Outdated Optimize Dep").
 */
describe('browser dependencies read from the source', () => {
  const deps = clientDependencies();
  const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as { dependencies: Record<string, string> };
  const packageOf = (spec: string) =>
    spec
      .split('/')
      .slice(0, spec.startsWith('@') ? 2 : 1)
      .join('/');

  it('finds what the islands and the dashboard import, statically and lazily', () => {
    for (const d of ['react', 'react-dom/client', 'sonner', 'swr', 'uqr', 'qrcode', '@tiptap/react', 'diff'])
      expect(deps).toContain(d);
  });

  it('holds no server-only package and nothing that is not a runtime dependency', () => {
    for (const d of ['twilio', 'argon2', 'sanitize-html', 'jose', '@netlify/blobs', 'otpauth', 'zipcodes'])
      expect(deps).not.toContain(d);
    for (const d of deps) expect(Object.keys(pkg.dependencies), d).toContain(packageOf(d));
  });
});
