import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StoredVotePlan } from '../../src/lib/schemas/vote-plan.ts';
import {
  audienceChannels,
  audiencePages,
  type Recipient,
} from '../../src/lib/server/broadcasts/audiences.ts';
import { hashed } from '../../src/lib/server/storage/keys.ts';
import { planKey, votePlans } from '../../src/lib/server/vote-plans/record.ts';
import { startBlobs } from '../helpers/blobs.ts';

/** Voters with a plan to vote as a broadcast audience (docs/decisions/152-broadcasts.md). */
let stop: () => Promise<void>;
beforeAll(async () => {
  ({ stop } = await startBlobs());
});
afterAll(() => stop());

const AT = '2026-10-20T15:00:00.000Z';
function plan(over: Partial<StoredVotePlan> & { name: string }): StoredVotePlan {
  const contact = over.phone ?? over.email ?? over.name;
  return {
    id: hashed(contact),
    round: 'primary',
    linkId: 'a'.repeat(22),
    day: '2026-11-03',
    method: 'in-person',
    timeOfDay: null,
    bringing: null,
    phone: null,
    email: null,
    lang: 'en',
    smsConsent: null,
    emailConsent: null,
    votedAt: null,
    stoppedAt: null,
    eveEmail: null,
    eveSms: null,
    morningEmail: null,
    morningSms: null,
    createdAt: AT,
    updatedAt: AT,
    ip: null,
    userAgent: null,
    ...over,
  };
}

async function recipients(audience: { kind: 'plan_to_vote'; lang?: 'en' | 'es' }): Promise<Recipient[]> {
  const out: Recipient[] = [];
  for await (const page of audiencePages({ channel: 'text', audience }, 0)) out.push(...page.recipients);
  return out;
}

describe('voters with a plan to vote', () => {
  it('reach every planner with a number who has not voted or stopped, in both rounds, texts only', async () => {
    const plans = [
      plan({ name: 'Rosa Parker', phone: '+15045550101' }),
      plan({ name: 'Luz García', phone: '+15045550102', lang: 'es', round: 'runoff' }),
      plan({ name: 'Already Voted', phone: '+15045550103', votedAt: AT }),
      plan({ name: 'Said Stop', phone: '+15045550104', stoppedAt: AT }),
      plan({ name: 'Email Only', email: 'only@example.com' }),
    ];
    await Promise.all(plans.map((p) => votePlans().put(planKey(p.round, p.id), p)));

    const all = await recipients({ kind: 'plan_to_vote' });
    expect(all.map((r) => [r.to, r.firstName, r.lang]).sort()).toEqual([
      ['+15045550101', 'Rosa', 'en'],
      ['+15045550102', 'Luz', 'es'],
    ]);
    expect((await recipients({ kind: 'plan_to_vote', lang: 'es' })).map((r) => r.to)).toEqual([
      '+15045550102',
    ]);
    expect(audienceChannels('plan_to_vote')).toEqual(['text']);
  });
});
