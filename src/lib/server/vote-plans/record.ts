import { StoredVotePlanSchema, type StoredVotePlan } from '../../schemas/vote-plan.ts';
import { PLAN_LINK_ID, type PlanReminder } from '../../vote-plan.ts';
import { key } from '../storage/keys.ts';
import type { KV } from '../storage/kv.ts';
import { kv } from '../storage/stores.ts';

/*
 * The plans-to-vote store (`vote-plans`; docs/decisions/158-plan-to-vote.md). Its own store, apart from the Inbox's:
 *
 * - `plan/<round>/<id>`: one voter's plan for a round (id = sha256 of the E.164 phone, else of the email). Only the
 *   first pledge from a contact makes it; it changes only from its own link (docs/decisions/158-plan-to-vote.md,
 *   "A plan belongs to its voter"); the reminder deliveries are claimed on it.
 * - `pledge/<round>/<linkId>`: a later pledge naming a contact that already has a plan, held apart: shaped like a
 *   plan and shown on its own link exactly like one, but never reminded, listed or merged into the plan.
 * - `link/<linkId>`: { round, id }: the page's link (128 random bits). It opens the plan when the plan holds this
 *   linkId, else the held pledge of that link, else nothing.
 * - `recent/<round>/<13-digit inverted ms of the first plan>-<id>`: an empty marker per plan, so the staff list reads
 *   newest first and a page costs one key listing plus its records.
 * - `due/<campaign wall clock>/<eve|morning>/<round>/<id>`: the reminder queue, in time order (wall-clock strings
 *   sort in time order: src/lib/campaign-time.ts); the job takes the due head in bounded batches
 *   (docs/decisions/158-plan-to-vote.md).
 *
 * Its own module, importing only the store and the schema: the reminders' consent reader (reminders.ts, asked by the
 * text guard) reads a plan through it.
 */

export type PlanRound = StoredVotePlan['round'];

export const votePlans = (): KV => kv('vote-plans');
export const planKey = (round: PlanRound, id: string) => key('plan', round, id);
export const linkKey = (linkId: string) => key('link', linkId);
export const pledgeKey = (round: PlanRound, linkId: string) => key('pledge', round, linkId);
export const dueKey = (due: string, which: PlanReminder, round: PlanRound, id: string) =>
  key('due', due, which, round, id);
export const DUE_PREFIX = 'due/';
export const RECENT_PREFIX = 'recent/';

export const INVERT_FROM = 9_999_999_999_999;
/** The staff list's marker: newest first in key order. */
export const recentKey = (round: PlanRound, firstAt: string, id: string) =>
  key('recent', round, `${String(INVERT_FROM - Date.parse(firstAt)).padStart(13, '0')}-${id}`);

/** A due key's parts, or null for a key that is not one. */
export function parseDueKey(
  k: string,
): { due: string; which: PlanReminder; round: PlanRound; id: string } | null {
  const m = /^due\/(\d{4}-\d{2}-\d{2}T\d{2}:\d{2})\/(eve|morning)\/(primary|runoff)\/([a-f0-9]{64})$/.exec(k);
  return m ? { due: m[1]!, which: m[2] as PlanReminder, round: m[3] as PlanRound, id: m[4]! } : null;
}

export const parsePlan = (raw: unknown): StoredVotePlan | null => {
  const p = StoredVotePlanSchema.safeParse(raw);
  return p.success ? p.data : null;
};

/** A plan, read strongly consistent (a "Stop reminders" a moment ago is seen). */
export async function getPlan(round: PlanRound, id: string): Promise<StoredVotePlan | null> {
  const r = await votePlans().get<unknown>(planKey(round, id));
  return r ? parsePlan(r.value) : null;
}

/**
 * What a link opens and where it is stored: the plan when the plan holds this link, else the held pledge made with
 * this link (a pledge for a contact that already had a plan), else null. Both answer the same page and buttons.
 */
export async function recordForLink(linkId: string): Promise<{ plan: StoredVotePlan; key: string } | null> {
  if (!PLAN_LINK_ID.test(linkId)) return null;
  const r = await votePlans().get<{ round: PlanRound; id: string }>(linkKey(linkId));
  if (!r) return null;
  const plan = await getPlan(r.value.round, r.value.id);
  if (plan?.linkId === linkId) return { plan, key: planKey(plan.round, plan.id) };
  const k = pledgeKey(r.value.round, linkId);
  const held = await votePlans().get<unknown>(k);
  const pledge = held ? parsePlan(held.value) : null;
  return pledge?.linkId === linkId ? { plan: pledge, key: k } : null;
}

/** The plan (or held pledge) a link opens, or null (docs/decisions/158-plan-to-vote.md). */
export async function planForLink(linkId: string): Promise<StoredVotePlan | null> {
  return (await recordForLink(linkId))?.plan ?? null;
}

/** Why the reminders' job skips a delivery of a stopped plan; "Resume my reminders" reopens exactly these. */
export const SKIPPED_STOPPED = 'Reminders stopped';

/** A new plan's state: not voted, reminders on, no reminder delivered yet. */
export const NEW_PLAN_STATE = {
  votedAt: null,
  stoppedAt: null,
  eveEmail: null,
  eveSms: null,
  morningEmail: null,
  morningSms: null,
} as const satisfies Partial<StoredVotePlan>;
