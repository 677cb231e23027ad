import type { Config, Context } from '@netlify/functions';
import { requireUser } from '../../src/lib/server/auth/session.ts';
import { directExport } from '../../src/lib/server/exports/exports.ts';
import { votePlanPage } from '../../src/lib/server/vote-plans/staff.ts';
import { allowMethods, handle, json } from '../../src/lib/server/http.ts';

/**
 * GET /api/admin/vote-plans?round=primary|runoff&page=N (admin, editor, like the Inbox): plans to vote, newest
 * first, a page at a time; `&format=csv` exports the round's plans (audited) up to EXPORT_LIMITS.directRows, else
 * 413 pointing at Export CSV. docs/decisions/158-plan-to-vote.md,
 * docs/decisions/156-exports.md.
 */
export default handle(async (req: Request, context: Context) => {
  allowMethods(req, 'GET');
  const user = await requireUser(req, { permission: 'edit_content' });
  const url = new URL(req.url);
  const round = url.searchParams.get('round') === 'runoff' ? 'runoff' : 'primary';
  if (url.searchParams.get('format') === 'csv') return directExport(user, context, 'vote_plans', { round });
  const raw = Number(url.searchParams.get('page') ?? '1');
  const page = Number.isSafeInteger(raw) && raw >= 1 && raw <= 10_000 ? raw : 1;
  return json(await votePlanPage(round, page));
});

export const config: Config = { path: '/api/admin/vote-plans' };
