import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/*
 * The folders of src/lib/server form a DAG (docs/decisions/153-storage.md, "The folders form a DAG"): no two folders
 * import each other, directly or round a longer loop, so a newcomer can read the server floor by floor, from
 * storage/ up. A node is a folder directly under src/lib/server (`texting/`) or a module beside them (`http.ts`);
 * every import counts, type-only ones included (as in `npm run cycles`). File-level cycles are `npm run cycles`'s.
 */

const SERVER = 'src/lib/server';

type Edges = Map<string, Map<string, string[]>>;

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return files(path);
    return /\.(ts|tsx|mts)$/.test(entry.name) ? [path] : [];
  });
}

/** The node a path under src/lib/server belongs to: its first segment, a folder with a trailing slash. */
function nodeOf(pathInServer: string): string {
  const [first, ...rest] = pathInServer.split('/');
  return rest.length > 0 ? `${first}/` : (first ?? pathInServer);
}

/** from -> to -> the imports (file: specifier) that make the edge. */
function folderGraph(): Edges {
  const root = resolve(SERVER);
  const edges: Edges = new Map();
  for (const file of files(SERVER)) {
    const from = nodeOf(relative(root, resolve(file)));
    const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    for (const { fileName: spec } of importedFiles) {
      if (!spec.startsWith('.')) continue;
      const target = relative(root, resolve(dirname(file), spec));
      if (target.startsWith('..')) continue;
      const to = nodeOf(target);
      if (to === from) continue;
      const out = edges.get(from) ?? new Map<string, string[]>();
      out.set(to, [...(out.get(to) ?? []), `${file}: ${spec}`]);
      edges.set(from, out);
    }
  }
  return edges;
}

/** Each pair of nodes that import each other, with the imports both ways. */
function twoWayPairs(edges: Edges): string[] {
  const pairs: string[] = [];
  for (const [a, out] of edges)
    for (const [b, why] of out) {
      const back = edges.get(b)?.get(a);
      if (a < b && back) pairs.push(`${a} <-> ${b}\n    ${[...why, ...back].join('\n    ')}`);
    }
  return pairs;
}

/** One cycle of the graph as a path (its first node repeated at the end), or null when there is none. */
function findCycle(edges: Edges): string[] | null {
  const done = new Set<string>();
  const path: string[] = [];
  const visit = (node: string): string[] | null => {
    const at = path.indexOf(node);
    if (at >= 0) return [...path.slice(at), node];
    if (done.has(node)) return null;
    path.push(node);
    for (const next of edges.get(node)?.keys() ?? []) {
      const cycle = visit(next);
      if (cycle) return cycle;
    }
    path.pop();
    done.add(node);
    return null;
  };
  for (const node of edges.keys()) {
    const cycle = visit(node);
    if (cycle) return cycle;
  }
  return null;
}

const graph = (pairs: [string, string][]): Edges =>
  new Map(
    [...new Set(pairs.map(([a]) => a))].map((a) => [
      a,
      new Map(pairs.filter(([x]) => x === a).map(([, b]) => [b, [`${a}->${b}`]])),
    ]),
  );

describe('the folder graph of src/lib/server', () => {
  const edges = folderGraph();

  it('is read from the imports (type-only and re-exports included)', () => {
    expect(edges.get('texting/')?.has('storage/')).toBe(true);
    expect(edges.get('broadcasts/')?.has('texting/')).toBe(true);
    // `import type { Suppression }` is this edge's only import.
    expect(edges.get('inbox/')?.get('people/')).toContain(
      'src/lib/server/inbox/summary-shapes.ts: ../people/suppressions.ts',
    );
    expect(edges.has('storage/')).toBe(true);
  });

  it('has no two folders that import each other', () => {
    const pairs = twoWayPairs(edges);
    expect(
      pairs,
      `Folders importing each other (move the code to the floor it belongs to):\n${pairs.join('\n')}`,
    ).toEqual([]);
  });

  it('has no cycle, however long', () => {
    const cycle = findCycle(edges);
    expect(cycle, `A cycle of folders: ${cycle?.join(' -> ')}`).toBeNull();
  });

  it('the checks find what they look for', () => {
    const loop = graph([
      ['a/', 'b/'],
      ['b/', 'c/'],
      ['c/', 'a/'],
      ['c/', 'd.ts'],
    ]);
    expect(twoWayPairs(loop)).toEqual([]);
    expect(findCycle(loop)).toEqual(['a/', 'b/', 'c/', 'a/']);
    expect(
      twoWayPairs(
        graph([
          ['a/', 'b/'],
          ['b/', 'a/'],
        ]),
      ),
    ).toHaveLength(1);
    expect(
      findCycle(
        graph([
          ['a/', 'b/'],
          ['a/', 'c/'],
          ['b/', 'c/'],
        ]),
      ),
    ).toBeNull();
  });
});
