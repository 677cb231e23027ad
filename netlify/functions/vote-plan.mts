import type { Config, Context } from '@netlify/functions';
import { VotePlanInputSchema, VotePlanUpdateSchema } from '../../src/lib/schemas/vote-plan.ts';
import { DEFAULT_LANG } from '../../src/lib/lang.ts';
import { localizedPath } from '../../src/lib/lang-paths.ts';
import { planPagePath, VOTE_PLAN_MESSAGES } from '../../src/lib/vote-plan.ts';
import { acceptPublicForm } from '../../src/lib/server/public-forms/accept.ts';
import { submitVotePlan } from '../../src/lib/server/vote-plans/submit.ts';
import { updateVotePlan } from '../../src/lib/server/vote-plans/update.ts';
import { allowMethods, handle, json, readInput, requireSameOrigin } from '../../src/lib/server/http.ts';

/** A plan from /vote, through the steps of every public form (src/lib/server/public-forms/accept.ts). */
const acceptPlan = acceptPublicForm({
  id: 'vote-plan',
  schema: VotePlanInputSchema,
  maxBytes: 8 * 1024,
  providers: { captcha: true },
  asksForText: (input) => input.smsConsent,
  store: ({ input, meta }) => submitVotePlan(input, meta),
  answer: ({ next }) => json({ message: VOTE_PLAN_MESSAGES.saved, next }, { status: 201 }),
});

/**
 * Make a plan to vote (docs/decisions/158-plan-to-vote.md):
 * - POST /api/vote-plan: a plan from /vote (JSON from the island, or a browser form post without JavaScript), through
 *   the steps of every public form: text reminders asked for take a slot of this IP's texts per hour (429 with
 *   Retry-After). 201 with the plan page's path (`next`), where a form post is sent; 410 once the polls have
 *   closed; 400 for a day that cannot be chosen.
 * - POST /api/vote-plan/update {id, action: voted|stop|resume|change, day?, method?, timeOfDay?}: the plan page's
 *   buttons and its change form (the link's random id is the proof the plan is the voter's); 404 for a link that is
 *   not (or no longer) a plan's. A pledge for a contact that already has a plan is answered like a new one and
 *   changes nothing of it (src/lib/server/vote-plans/submit.ts).
 */
export default handle(async (req: Request, context: Context) => {
  if (!new URL(req.url).pathname.replace(/\/+$/, '').endsWith('/update')) return acceptPlan(req, context);
  allowMethods(req, 'POST');
  requireSameOrigin(req);
  const input = await readInput(req, 'vote-plan-update', VotePlanUpdateSchema, 2 * 1024);
  const status = await updateVotePlan(
    input.id,
    input.action === 'change'
      ? { action: 'change', day: input.day!, method: input.method!, timeOfDay: input.timeOfDay ?? null }
      : { action: input.action },
  );
  // A changed plan is shown on its own page again (a form post is sent there).
  const next =
    status === 'changed' ? localizedPath(planPagePath(input.id), input.lang ?? DEFAULT_LANG) : undefined;
  return json({ status, message: VOTE_PLAN_MESSAGES[status], ...(next ? { next } : {}) });
});

export const config: Config = { path: ['/api/vote-plan', '/api/vote-plan/update'] };
