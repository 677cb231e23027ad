import type { Config, Context } from '@netlify/functions';
import { VotePlanInputSchema, VotePlanUpdateSchema } from '../../src/lib/schemas/vote-plan.ts';
import { DEFAULT_LANG } from '../../src/lib/lang.ts';
import { localizedPath } from '../../src/lib/lang-paths.ts';
import { planPagePath, VOTE_PLAN_MESSAGES } from '../../src/lib/vote-plan.ts';
import { verifyCaptcha } from '../../src/lib/server/adapters/captcha.ts';
import { requireFormProviders } from '../../src/lib/server/forms/config.ts';
import { assertPhoneAllowed } from '../../src/lib/server/texting/phone-policy.ts';
import { reserveFormPost } from '../../src/lib/server/forms/post-limits.ts';
import { reserveTextFromIp } from '../../src/lib/server/texting/text-limits.ts';
import { submitVotePlan } from '../../src/lib/server/vote-plans/submit.ts';
import { updateVotePlan } from '../../src/lib/server/vote-plans/update.ts';
import {
  allowMethods,
  clientIp,
  handle,
  json,
  readInput,
  requireSameOrigin,
} from '../../src/lib/server/http.ts';

/**
 * Make a plan to vote (docs/decisions/110-plan-to-vote.md):
 * - POST /api/vote-plan: a plan from /vote (JSON from the island, or a browser form post without JavaScript). Before
 *   the captcha: the phone like every form's (country and number type, 400), this IP's posts per hour and, when text
 *   reminders are asked for, its texts per hour (429 with Retry-After). 201 with the plan page's path (`next`),
 *   where a form post is sent; 410 once the polls have closed; 400 for a day that cannot be chosen.
 * - POST /api/vote-plan/update {id, action: voted|stop|resume|change, day?, method?, timeOfDay?}: the plan page's
 *   buttons and its change form (the link's random id is the proof the plan is the voter's); 404 for a link that is
 *   not (or no longer) a plan's. A pledge for a contact that already has a plan is answered like a new one and
 *   changes nothing of it (src/lib/server/vote-plans/submit.ts).
 */
export default handle(async (req: Request, context: Context) => {
  allowMethods(req, 'POST');
  requireSameOrigin(req);
  const ip = clientIp(context);
  if (new URL(req.url).pathname.replace(/\/+$/, '').endsWith('/update')) {
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
  }
  requireFormProviders({ captcha: true });
  const input = await readInput(req, 'vote-plan', VotePlanInputSchema, 8 * 1024);
  assertPhoneAllowed(input.phone);
  await reserveFormPost('vote-plan', ip);
  if (input.smsConsent && input.phone) await reserveTextFromIp(ip);
  await verifyCaptcha(input.captcha, ip);
  const { next } = await submitVotePlan(input, { ip, userAgent: req.headers.get('user-agent') });
  return json({ message: VOTE_PLAN_MESSAGES.saved, next }, { status: 201 });
});

export const config: Config = { path: ['/api/vote-plan', '/api/vote-plan/update'] };
