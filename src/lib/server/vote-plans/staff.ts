import type { StoredVotePlan, VotePlanPage, VotePlanRow } from '../../schemas/vote-plan.ts';
import { toCsv } from '../forms/inbox.ts';
import { getPlan, RECENT_PREFIX, votePlans, type PlanRound } from './record.ts';

/*
 * Plans to vote for staff (docs/decisions/110-plan-to-vote.md): newest first from the `recent/<round>/` markers, so a
 * page costs the key listing pages up to it (1,000 keys each) plus its own records, whatever the store holds; the
 * CSV reads every plan of the round (an export). Neither shows the link id, the IP or the user agent.
 */

export const VOTE_PLAN_PAGE_SIZE = 50;

const row = (p: StoredVotePlan): VotePlanRow => {
  const { linkId: _l, ip: _i, userAgent: _u, ...rest } = p;
  return rest;
};

/** The plan ids of a round, newest first, from `skip` on, at most `take`. */
async function idsFrom(round: PlanRound, skip: number, take: number): Promise<string[]> {
  const out: string[] = [];
  let seen = 0;
  for await (const page of votePlans().keys(`${RECENT_PREFIX}${round}/`)) {
    for (const k of page) {
      if (seen++ < skip) continue;
      const id = /-([a-f0-9]{64})$/.exec(k)?.[1];
      if (id) out.push(id);
      if (out.length >= take) return out;
    }
  }
  return out;
}

async function readPlans(round: PlanRound, ids: string[]): Promise<StoredVotePlan[]> {
  const out: StoredVotePlan[] = [];
  for (let i = 0; i < ids.length; i += 10) {
    const batch = await Promise.all(ids.slice(i, i + 10).map((id) => getPlan(round, id)));
    for (const p of batch) if (p) out.push(p);
  }
  return out;
}

export async function votePlanPage(round: PlanRound, page: number): Promise<VotePlanPage> {
  const size = VOTE_PLAN_PAGE_SIZE;
  const ids = await idsFrom(round, (page - 1) * size, size + 1);
  const items = (await readPlans(round, ids.slice(0, size))).map(row);
  return { items, page, pageSize: size, more: ids.length > size };
}

export const VOTE_PLAN_CSV_COLUMNS = [
  'round',
  'day',
  'method',
  'time_of_day',
  'bringing',
  'name',
  'phone',
  'email',
  'text_reminders',
  'email_reminders',
  'voted_at',
  'stopped_at',
  'eve_email',
  'eve_text',
  'morning_email',
  'morning_text',
  'language',
  'created_at',
  'updated_at',
];

export async function votePlanCsv(
  round: PlanRound,
  now = new Date(),
): Promise<{ filename: string; body: string }> {
  const plans = await readPlans(round, await idsFrom(round, 0, Number.MAX_SAFE_INTEGER));
  const d = (x: StoredVotePlan['eveEmail']) => (x ? x.status : '');
  const rows = plans.map((p) => [
    p.round,
    p.day,
    p.method,
    p.timeOfDay ?? '',
    p.bringing ?? '',
    p.name,
    p.phone ?? '',
    p.email ?? '',
    p.smsConsent ? 'yes' : 'no',
    p.emailConsent ? 'yes' : 'no',
    p.votedAt ?? '',
    p.stoppedAt ?? '',
    d(p.eveEmail),
    d(p.eveSms),
    d(p.morningEmail),
    d(p.morningSms),
    p.lang,
    p.createdAt,
    p.updatedAt,
  ]);
  return {
    filename: `plans-to-vote-${round}-${now.toISOString().slice(0, 10)}.csv`,
    body: toCsv(VOTE_PLAN_CSV_COLUMNS, rows),
  };
}
