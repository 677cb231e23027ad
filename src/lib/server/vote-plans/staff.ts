import type { StoredVotePlan, VotePlanPage, VotePlanRow } from '../../schemas/vote-plan.ts';
import type { ExportColumn, ExportSource } from '../export-source.ts';
import { getPlan, RECENT_PREFIX, votePlans, type PlanRound } from './record.ts';

/*
 * Plans to vote for staff (docs/decisions/158-plan-to-vote.md): newest first from the `recent/<round>/` markers, so a
 * page costs the key listing pages up to it (1,000 keys each) plus its own records, whatever the store holds; the
 * CSV is an export of the round read a window at a time (votePlanExportSource). Neither shows the link id, the IP or the user agent.
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

export const VOTE_PLAN_CSV_COLUMNS: readonly (string | ExportColumn)[] = [
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
  { name: 'voted_at', time: true },
  { name: 'stopped_at', time: true },
  'eve_email',
  'eve_text',
  'morning_email',
  'morning_text',
  'language',
  { name: 'created_at', time: true },
  { name: 'updated_at', time: true },
];

/** Plans read per window of an export (at most this many record reads in flight at a time: readPlans reads 10). */
export const VOTE_PLAN_CSV_WINDOW = 100;

const status = (x: StoredVotePlan['eveEmail']) => (x ? x.status : '');

const csvRow = (p: StoredVotePlan): string[] => [
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
  status(p.eveEmail),
  status(p.eveSms),
  status(p.morningEmail),
  status(p.morningSms),
  p.lang,
  p.createdAt,
  p.updatedAt,
];

/**
 * A round's plans as an export (docs/decisions/156-exports.md): the ids from the
 * `recent/` key listing (1,000 keys a call), then the plans VOTE_PLAN_CSV_WINDOW at a time, so an export of any
 * size holds one window of records in memory and the background export writes it.
 */
export async function votePlanExportSource(round: PlanRound, now = new Date()): Promise<ExportSource> {
  const ids = await idsFrom(round, 0, Number.MAX_SAFE_INTEGER);
  return {
    filename: `plans-to-vote-${round}-${now.toISOString().slice(0, 10)}.csv`,
    columns: VOTE_PLAN_CSV_COLUMNS,
    total: ids.length,
    async *rows() {
      for (let i = 0; i < ids.length; i += VOTE_PLAN_CSV_WINDOW)
        for (const p of await readPlans(round, ids.slice(i, i + VOTE_PLAN_CSV_WINDOW))) yield csvRow(p);
    },
  };
}
