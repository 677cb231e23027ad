import type { Overview } from '../../src/lib/schemas/overview.ts';
import { foldActivity, OP_PREFIX, store } from '../../src/lib/server/activity/counts.ts';
import { overview } from '../../src/lib/server/overview/overview.ts';
import { rebuildActivity } from '../../src/lib/server/overview/rebuild.ts';

/** An Overview's by-source rows as "kind source" -> count. */
export const bySource = (o: Overview) =>
  Object.fromEntries(o.sources.map((s) => [`${s.kind} ${s.source}`, s.count]));

/**
 * The last 7 days' Overview three ways (docs/decisions/180-overview.md): as counted on write, after the fold, and
 * rebuilt from the records (npm run reindex); and the counting operations still waiting after them.
 */
export async function overviewThreeWays(): Promise<{
  onWrite: Overview;
  folded: Overview;
  rebuilt: Overview;
  waiting: string[];
}> {
  const onWrite = await overview('7');
  await foldActivity();
  const folded = await overview('7');
  await rebuildActivity();
  const rebuilt = await overview('7');
  const waiting: string[] = [];
  for await (const page of store().keys(OP_PREFIX)) waiting.push(...page);
  return { onWrite, folded, rebuilt, waiting };
}
