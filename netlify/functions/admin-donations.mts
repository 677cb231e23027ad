import type { Config, Context } from '@netlify/functions';
import { DonationRangeSchema, GoalInputSchema } from '../../src/lib/schemas/donations.ts';
import { requireUser } from '../../src/lib/server/auth/session.ts';
import { CACHE_TAGS, purgeTags } from '../../src/lib/server/content/responses.ts';
import { campaignToday } from '../../src/lib/server/content/events.ts';
import { toCsv } from '../../src/lib/server/forms/inbox.ts';
import { donationSummary, getGoal, setGoal, summaryCsvRows } from '../../src/lib/server/donations/ledger.ts';
import { allowMethods, download, handle, json, readJson } from '../../src/lib/server/http.ts';
import { zodToHttp } from '../../src/lib/server/errors.ts';
import { audit } from '../../src/lib/server/audit/audit.ts';

const DEFAULT_DAYS = 30;

/** "on, $5000 since 2026-01-01" for the goal change's audit entry. */
const goalSummary = (g: { enabled: boolean; targetCents: number; since: string }) =>
  `${g.enabled ? 'on' : 'off'}, $${g.targetCents / 100}${g.since ? ` since ${g.since}` : ''}`;

function rangeOf(url: URL, now = new Date()) {
  const to = url.searchParams.get('to') || campaignToday(now);
  const toDate = Date.parse(`${to}T12:00:00Z`);
  const from =
    url.searchParams.get('from') ||
    (Number.isNaN(toDate) ? to : campaignToday(new Date(toDate - (DEFAULT_DAYS - 1) * 86_400_000)));
  const r = DonationRangeSchema.safeParse({ from, to });
  if (!r.success) throw zodToHttp(r.error);
  return r.data;
}

/**
 * GET /api/admin/donations?from&to[&format=csv]: attribution totals from the
 * day aggregates (every staff role reads). GET/PUT /api/admin/donations/goal:
 * the public goal (admin and editor change it). Goal changes and CSV exports
 * are audited (docs/decisions/073-audit-anchors.md).
 */
export default handle(async (req: Request, context: Context) => {
  const url = new URL(req.url);
  const goalPath = url.pathname.replace(/\/$/, '').endsWith('/goal');
  allowMethods(req, ...(goalPath ? ['GET', 'PUT'] : ['GET']));
  if (req.method === 'GET') {
    const reader = await requireUser(req);
    if (goalPath) return json({ goal: await getGoal() });
    const { from, to } = rangeOf(url);
    const summary = await donationSummary(from, to);
    if (url.searchParams.get('format') === 'csv') {
      const { columns, rows } = summaryCsvRows(summary);
      await audit(context, reader, 'donation.export', null, { from, to });
      return download(toCsv(columns, rows), `donations-${from}-to-${to}.csv`, 'text/csv; charset=utf-8');
    }
    return json(summary);
  }
  const user = await requireUser(req, { permission: 'edit_content' });
  const before = await getGoal();
  const goal = await setGoal(await readJson(req, GoalInputSchema, 4 * 1024), user.username);
  await audit(
    context,
    user,
    'donation.goal_update',
    { type: 'goal', id: 'donations', label: goal.label },
    {
      ...(before ? { before: goalSummary(before) } : {}),
      after: goalSummary(goal),
    },
  );
  await purgeTags(CACHE_TAGS.donationGoal);
  return json({ goal });
});

export const config: Config = { path: ['/api/admin/donations', '/api/admin/donations/goal'] };
