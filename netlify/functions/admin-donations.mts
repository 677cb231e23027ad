import type { Config, Context } from '@netlify/functions';
import { GoalInputSchema } from '../../src/lib/schemas/donations.ts';
import { requireUser } from '../../src/lib/server/auth/session.ts';
import { CACHE_TAGS, purgeTags } from '../../src/lib/server/content/responses.ts';
import { donationRange, donationSummary, getGoal, setGoal } from '../../src/lib/server/donations/ledger.ts';
import { directExport } from '../../src/lib/server/exports/exports.ts';
import { allowMethods, handle, json, readJson } from '../../src/lib/server/http.ts';
import { audit } from '../../src/lib/server/audit/audit.ts';

/** "on, $5000 since 2026-01-01" for the goal change's audit entry. */
const goalSummary = (g: { enabled: boolean; targetCents: number; since: string }) =>
  `${g.enabled ? 'on' : 'off'}, $${g.targetCents / 100}${g.since ? ` since ${g.since}` : ''}`;

/**
 * GET /api/admin/donations?from&to[&format=csv]: attribution totals from the
 * day aggregates (every staff role reads). GET/PUT /api/admin/donations/goal:
 * the public goal (admin and editor change it). Goal changes and CSV exports
 * are audited (docs/decisions/154-audit-trail.md).
 */
export default handle(async (req: Request, context: Context) => {
  const url = new URL(req.url);
  const goalPath = url.pathname.replace(/\/$/, '').endsWith('/goal');
  allowMethods(req, ...(goalPath ? ['GET', 'PUT'] : ['GET']));
  if (req.method === 'GET') {
    const reader = await requireUser(req);
    if (goalPath) return json({ goal: await getGoal() });
    const range = donationRange({
      from: url.searchParams.get('from') ?? undefined,
      to: url.searchParams.get('to') ?? undefined,
    });
    // The `donations` export (docs/decisions/156-exports.md).
    if (url.searchParams.get('format') === 'csv') return directExport(reader, context, 'donations', range);
    return json(await donationSummary(range.from, range.to));
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
