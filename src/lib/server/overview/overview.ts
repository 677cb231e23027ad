import { campaignToday, nextCampaignDay } from '../../campaign-time.ts';
import {
  ACTIVITY_KINDS,
  OTHER_REFCODES,
  TOP_REFCODES,
  type ActivityKind,
  type Overview,
  type OverviewPeriod,
} from '../../schemas/overview.ts';
import { MAX_RANGE_DAYS } from '../../schemas/donations.ts';
import { listBroadcasts } from '../broadcasts/repo.ts';
import { broadcastView } from '../broadcasts/staff.ts';
import { staffProgress } from '../content/progress-public.ts';
import { adminEvents } from '../content/events.ts';
import { getCheckIns, getRoster } from '../events/rsvp.ts';
import { counts as rosterCounts } from '../events/roster.ts';
import { donationSummary, getGoal } from '../donations/ledger.ts';
import { mapLimit } from '../storage/map-limit.ts';
import { shiftGaps } from '../activity/shift-gaps.ts';
import {
  addOps,
  BEHIND_AFTER_MS,
  DAY_PREFIX,
  emptyDay,
  FOLD_MARK_KEY,
  OP_PREFIX,
  pendingOps,
  readMonth,
  readDay,
  store,
} from '../activity/counts.ts';

const zeros = (): Record<ActivityKind, number> =>
  Object.fromEntries(ACTIVITY_KINDS.map((k) => [k, 0])) as Record<ActivityKind, number>;

function minusDays(day: string, n: number): string {
  return new Date(Date.parse(`${day}T12:00:00Z`) - n * 86_400_000).toISOString().slice(0, 10);
}

/**
 * The first campaign day with a rollup or a waiting op (the site's launch, as far as the Overview knows): the first
 * page of each listing.
 */
async function firstDay(): Promise<string | null> {
  const firstOf = async (prefix: string, dayOf: (k: string) => string | undefined) => {
    for await (const page of store().keys(prefix))
      return (
        page
          .map(dayOf)
          .filter((d): d is string => !!d)
          .sort()[0] ?? null
      );
    return null;
  };
  const found = await Promise.all([
    firstOf(DAY_PREFIX, (k) => k.slice(DAY_PREFIX.length)),
    firstOf(OP_PREFIX, (k) => k.split('/')[1]),
  ]);
  return found.filter((d): d is string => d !== null).sort()[0] ?? null;
}

/** The days' rollups read from their months' (one read per month: "since launch" reads about thirteen). */
async function daysFromMonths(dayList: string[]) {
  const months = [...new Set(dayList.map((d) => d.slice(0, 7)))];
  const docs = new Map((await mapLimit(months, 16, readMonth)).map((m) => [m.month, m]));
  return dayList.map((day) => {
    const doc = docs.get(day.slice(0, 7))?.days[day];
    return doc ? structuredClone(doc) : emptyDay(day);
  });
}

/** The campaign days of a period ending today (inclusive), at most MAX_RANGE_DAYS. */
export async function periodDays(period: OverviewPeriod, now: Date): Promise<{ from: string; to: string }> {
  const to = campaignToday(now);
  const span = period === 'launch' ? MAX_RANGE_DAYS : Number(period);
  let from = minusDays(to, span - 1);
  if (period === 'launch') {
    const first = await firstDay();
    if (first && first > from) from = first;
    if (!first) from = to;
  }
  return { from, to };
}

const BROADCASTS_SHOWN = 5;
const EVENTS_SHOWN = 20;
const WENT_OUT = new Set(['sending', 'paused', 'completed', 'cancelled']);

/**
 * The Overview (docs/decisions/180-overview.md): its store reads grow with the days in the period (one rollup
 * each), the broadcasts shown (at most five) and the donation days, never with the supporters.
 */
export async function overview(period: OverviewPeriod, now = new Date()): Promise<Overview> {
  const { from, to } = await periodDays(period, now);
  const dayList: string[] = [];
  for (let d = from; d <= to && dayList.length <= MAX_RANGE_DAYS; d = nextCampaignDay(d)) dayList.push(d);

  const [docs, pending, mark] = await Promise.all([
    period === 'launch'
      ? daysFromMonths(dayList)
      : mapLimit(dayList, 16, async (day) => (await readDay(day)).doc),
    pendingOps(),
    store().get<{ at: string }>(FOLD_MARK_KEY),
  ]);
  // Ops not yet folded are counted from their names (an op already in its rollup is not counted twice).
  let waiting = 0;
  for (const doc of docs) {
    const ops = pending.get(doc.day) ?? [];
    const applied = new Set(doc.applied);
    const fresh = ops.filter((o) => !applied.has(o.name));
    waiting += fresh.length;
    addOps(doc, fresh);
  }
  for (const [day, ops] of pending) if (day < from || day > to) waiting += ops.length;
  const lastFold = mark?.value.at ?? null;
  const behind =
    waiting > 0 && (!lastFold || now.getTime() - Date.parse(lastFold) > BEHIND_AFTER_MS)
      ? { since: lastFold }
      : null;

  const totals = zeros();
  const bySource = new Map<string, { source: string; kind: ActivityKind; count: number }>();
  const days = docs.map((doc) => {
    const counts = zeros();
    for (const k of ACTIVITY_KINDS) {
      counts[k] = doc.counts[k] ?? 0;
      totals[k] += counts[k];
    }
    for (const [kind, sources] of Object.entries(doc.sources))
      for (const [source, n] of Object.entries(sources)) {
        const id = `${kind} ${source}`;
        const row = bySource.get(id) ?? { source, kind: kind as ActivityKind, count: 0 };
        row.count += n;
        bySource.set(id, row);
      }
    return { day: doc.day, counts };
  });

  const [summary, goal, progress, items, allEvents] = await Promise.all([
    donationSummary(from, to),
    getGoal(),
    staffProgress(),
    listBroadcasts(),
    adminEvents(),
  ]);
  const shown = items.filter((b) => WENT_OUT.has(b.status)).slice(0, BROADCASTS_SHOWN);
  const [views, shifts] = await Promise.all([
    mapLimit(shown, 5, (b) => broadcastView(b.id, now.getTime())),
    shiftGaps(now, new Map(allEvents.map((e) => [e.id, e.title]))),
  ]);
  // Events of the period, the latest first: one roster and one check-in read each, twenty at most.
  const periodEvents = allEvents
    .filter((e) => e.eventDate >= from && e.eventDate <= to)
    .reverse()
    .slice(0, EVENTS_SHOWN);
  const eventRows = await mapLimit(periodEvents, 8, async (e) => {
    const [roster, checkIns] = await Promise.all([getRoster(e.id), getCheckIns(e.id)]);
    const c = rosterCounts(roster.entries);
    return {
      id: e.id,
      title: e.title,
      date: e.eventDate,
      going: c.goingPeople,
      waitlisted: c.waitlistedPeople,
      attended: Object.keys(checkIns.people).length,
      capacity: e.maxAttendees,
    };
  });
  const byDay = new Map(days.map((d) => [d.day, d.counts]));
  const optOutsAfter = (channel: string, startedAt: string | null): number | null => {
    if (!startedAt) return null;
    const first = campaignToday(new Date(startedAt));
    const pair = [first, nextCampaignDay(first)].map((d) => byDay.get(d));
    if (pair.some((c) => !c)) return null;
    const kinds: ActivityKind[] =
      channel === 'text' ? ['text.optout', 'text.carrier_optout'] : ['email.unsubscribe', 'email.spam'];
    return pair.reduce((n, c) => n + kinds.reduce((m, k) => m + c![k], 0), 0);
  };

  return {
    period,
    from,
    to,
    days,
    totals,
    sources: topRefcodes([...bySource.values()]).sort(
      (a, b) => b.count - a.count || a.source.localeCompare(b.source),
    ),
    broadcasts: views.map(({ broadcast: b, progress: p }) => {
      const skipped = Object.entries(p.counts)
        .filter(([k]) => k.startsWith('skipped_'))
        .reduce((n, [, v]) => n + v, 0);
      return {
        id: b.id,
        name: b.name,
        channel: b.channel,
        status: b.status,
        recipients: p.recipients,
        sent: p.counts.sent,
        failed: p.counts.failed,
        skipped,
        delivered: p.reported.delivered,
        undelivered: p.reported.undelivered + p.reported.bounced,
        startedAt: b.run.startedAt,
        optOutsAfter: optOutsAfter(b.channel, b.run.startedAt),
      };
    }),
    donations: {
      netCents: summary.totals.netCents,
      count: summary.totals.count,
      goalCents: goal?.enabled ? goal.targetCents : null,
      byDay: summary.byDay.map((r) => ({ day: r.value, netCents: r.netCents, count: r.count })),
      byRefcode: summary.byRefcode.map((r) => ({ refcode: r.value, netCents: r.netCents, count: r.count })),
    },
    events: eventRows,
    goals: [
      ...progress.goals.map((g) => ({
        label: g.description,
        current: g.currentCount,
        target: g.targetCount,
        kind: 'goal' as const,
      })),
      ...progress.milestones.map((m) => ({
        label: m.label,
        current: m.currentCount,
        target: m.targetCount,
        kind: 'milestone' as const,
      })),
    ],
    shifts,
    behind,
  };
}

interface SourceRow {
  source: string;
  kind: ActivityKind;
  count: number;
}

/**
 * The refcodes with the most sign-ups (all forms) keep their rows; the rest are summed per form into one row,
 * "Other refcodes" (OTHER_REFCODES), so a campaign of many links is still a table staff can read.
 */
export function topRefcodes(rows: SourceRow[]): SourceRow[] {
  const totals = new Map<string, number>();
  for (const r of rows)
    if (r.source.startsWith('ref:')) totals.set(r.source, (totals.get(r.source) ?? 0) + r.count);
  const kept = new Set(
    [...totals]
      .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
      .slice(0, TOP_REFCODES)
      .map(([source]) => source),
  );
  const out: SourceRow[] = [];
  const other = new Map<ActivityKind, SourceRow>();
  for (const r of rows) {
    if (!r.source.startsWith('ref:') || kept.has(r.source)) out.push(r);
    else {
      const row = other.get(r.kind) ?? { source: OTHER_REFCODES, kind: r.kind, count: 0 };
      row.count += r.count;
      other.set(r.kind, row);
    }
  }
  return [...out, ...other.values()];
}
