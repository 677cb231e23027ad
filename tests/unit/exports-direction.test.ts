import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/*
 * The exports and the features they export import one way (docs/decisions/156-exports.md):
 * src/lib/server/exports/ (the mechanism and its registry of every staff export) imports the features; a feature
 * builds its ExportSource from src/lib/server/export-source.ts and imports nothing under exports/. Only the
 * handlers (netlify/functions) and scripts call the mechanism.
 */
const SERVER = 'src/lib/server';

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) =>
    d.isDirectory() ? files(join(dir, d.name)) : d.name.endsWith('.ts') ? [join(dir, d.name)] : [],
  );
}

describe('exports import the features, never the reverse', () => {
  it('no server module outside exports/ imports from exports/', () => {
    const offenders = files(SERVER)
      .filter((f) => !f.startsWith(join(SERVER, 'exports')))
      .filter((f) => /from '[^']*\/exports\/[^']*'/.test(readFileSync(f, 'utf8')));
    expect(offenders).toEqual([]);
  });

  it('the registry is what imports the features (the rule has something to hold)', () => {
    const registry = readFileSync(join(SERVER, 'exports/registry.ts'), 'utf8');
    expect(registry).toMatch(/from '\.\.\/inbox\/lists\.ts'/);
  });
});
