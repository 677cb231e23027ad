import { fingerprint } from '../../fingerprint.ts';
import { electionStage, stageKey, type ElectionCalendar } from '../../election-stage.ts';
import { triggerBuild } from '../adapters/build-hook.ts';
import { upsert } from '../storage/compare-and-set.ts';
import { key } from '../storage/keys.ts';
import { kv } from '../storage/stores.ts';
import { getElectionCalendar } from './calendar.ts';

/*
 * How a stage change reaches the static pages (docs/decisions/157-election-calendar.md). Every few minutes the
 * scheduled function netlify/functions/stage-rebuild.mts compares what the pages should show now (the stage's key
 * and the calendar's fingerprint) with what the last requested build showed, and calls the build hook when they
 * differ. The last request is stored in Blobs (`meta/election/last-build`).
 */

const LAST_BUILD_KEY = key('election', 'last-build');

/** What a build shows: its stage and the calendar it was built from. */
export interface BuiltStage {
  stage: string;
  calendar: string;
  requestedAt: string;
}

export interface RebuildDecision {
  rebuild: boolean;
  /** Why (for the build's title and the log). */
  reason: string;
  next: BuiltStage;
}

/** Pure: whether the pages built for `last` are stale at `now`, and what a build now would show. */
export function decideRebuild(
  calendar: ElectionCalendar,
  now: Date,
  last: BuiltStage | null,
): RebuildDecision {
  const next: BuiltStage = {
    stage: stageKey(electionStage(calendar, now)),
    calendar: fingerprint(JSON.stringify(calendar)),
    requestedAt: now.toISOString(),
  };
  if (!last) return { rebuild: true, reason: `first check (${next.stage})`, next };
  if (last.calendar !== next.calendar)
    return { rebuild: true, reason: `calendar changed (${next.stage})`, next };
  if (last.stage !== next.stage) return { rebuild: true, reason: `${last.stage} -> ${next.stage}`, next };
  return { rebuild: false, reason: `unchanged (${next.stage})`, next };
}

/**
 * One check: reads the calendar and the last request, calls the build hook when the pages are stale, and records
 * the request only once the hook accepted it (a failed call is retried at the next check).
 */
export async function checkStage(now = new Date()): Promise<{ rebuild: boolean; reason: string }> {
  const { calendar } = await getElectionCalendar();
  const last = (await kv('meta').get<BuiltStage>(LAST_BUILD_KEY))?.value ?? null;
  const decision = decideRebuild(calendar, now, last);
  if (decision.rebuild) {
    await triggerBuild(decision.reason, now);
    await upsert<BuiltStage>(kv('meta'), LAST_BUILD_KEY, () => decision.next);
  }
  return { rebuild: decision.rebuild, reason: decision.reason };
}
