import type { StoredVotePlan } from '../../src/lib/schemas/vote-plan.ts';
import { mapLimit } from '../../src/lib/server/storage/map-limit.ts';
import { NEW_PLAN_STATE, planKey, recentKey, votePlans } from '../../src/lib/server/vote-plans/record.ts';

/**
 * `n` plans to vote for the primary written straight into the store (each with its staff-list marker), as
 * `n` voters would leave it; one a minute from 2026-10-01 12:00 UTC, with email reminders.
 */
export async function seedPlans(n: number): Promise<void> {
  await mapLimit(
    Array.from({ length: n }, (_, i) => i),
    16,
    async (i) => {
      const id = String(i + 1).padStart(64, 'a');
      const at = new Date(Date.UTC(2026, 9, 1, 12, i)).toISOString();
      const plan: StoredVotePlan = {
        ...NEW_PLAN_STATE,
        id,
        round: 'primary',
        linkId: `link${i}`.padEnd(22, 'x'),
        day: '2026-11-03',
        method: 'in-person',
        timeOfDay: null,
        bringing: null,
        name: `Voter ${i}`,
        phone: null,
        email: `voter${i}@example.org`,
        lang: 'en',
        smsConsent: null,
        emailConsent: { at, text: 'Email me reminders', version: '1' },
        createdAt: at,
        updatedAt: at,
        ip: null,
        userAgent: null,
      };
      await votePlans().put(planKey('primary', id), plan);
      await votePlans().create(recentKey('primary', at, id), {});
    },
  );
}
