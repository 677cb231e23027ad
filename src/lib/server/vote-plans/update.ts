import { VOTE_PLAN_MESSAGES } from '../../vote-plan.ts';
import { HttpError } from '../errors.ts';
import { UNCHANGED, upsert } from '../store.ts';
import { parsePlan, planForLink, planKey, votePlans } from './record.ts';

/**
 * The plan page's buttons (docs/decisions/110-plan-to-vote.md): "I voted" (no Election Day morning reminder) and
 * "Stop my reminders" (none of either kind). Idempotent: a second press changes nothing. The link's id must be the
 * plan's current one (404 otherwise, one message that says nothing about whose plan it was).
 */
export async function updateVotePlan(
  linkId: string,
  action: 'voted' | 'stop',
  now = new Date(),
): Promise<'voted' | 'stopped'> {
  const plan = await planForLink(linkId);
  if (!plan) throw new HttpError(404, VOTE_PLAN_MESSAGES.badLink);
  const at = now.toISOString();
  const field = action === 'voted' ? 'votedAt' : 'stoppedAt';
  await upsert<unknown>(votePlans(), planKey(plan.round, plan.id), (raw) => {
    const cur = raw ? parsePlan(raw) : null;
    if (cur?.linkId !== linkId || cur[field]) return UNCHANGED;
    return { ...cur, [field]: at, updatedAt: at };
  });
  return action === 'voted' ? 'voted' : 'stopped';
}
