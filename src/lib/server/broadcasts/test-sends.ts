import { z } from 'zod';
import { campaignDayStart, campaignToday, nextCampaignDay } from '../../campaign-time.ts';
import { STAFF_PHONE_MESSAGES, STAFF_TESTS_PER_DAY } from '../../schemas/staff-phone.ts';
import { tooManyRequests } from '../auth/rate-limit.ts';
import { ConflictError, upsert } from '../storage/compare-and-set.ts';
import { key } from '../storage/keys.ts';
import { kv } from '../storage/stores.ts';

/**
 * The daily count of a member's broadcast test sends, texts and emails together
 * (docs/decisions/152-broadcasts.md): STAFF_TESTS_PER_DAY per campaign day (midnight to midnight
 * in the campaign's time zone, the day staff plan in), then 429 until the next midnight. One document per member in
 * store `ratelimit` (`staff-tests/<user id>`: the day and its count), so no key is left behind per day; a slot is taken
 * with compare-and-set before the test is sent (reserve before the work, as every limiter here).
 */

const TestDaySchema = z.object({ day: z.string(), count: z.number().int().min(0) });
type TestDay = z.infer<typeof TestDaySchema>;
const testsKey = (userId: number) => key('staff-tests', userId);

/** Takes one of today's test sends for this member, or 429 with Retry-After until the campaign's next midnight. */
export async function reserveTestSend(userId: number, now = new Date()): Promise<void> {
  const day = campaignToday(now);
  try {
    await upsert<TestDay>(kv('ratelimit'), testsKey(userId), (raw) => {
      const cur = raw ? TestDaySchema.safeParse(raw).data : undefined;
      const used = cur?.day === day ? cur.count : 0;
      if (used >= STAFF_TESTS_PER_DAY) {
        const reopens = Date.parse(campaignDayStart(nextCampaignDay(day)));
        throw tooManyRequests((reopens - now.getTime()) / 1000, () => STAFF_PHONE_MESSAGES.tooManyTests);
      }
      return { day, count: used + 1 };
    });
  } catch (err) {
    if (err instanceof ConflictError) throw tooManyRequests(5);
    throw err;
  }
}

/** Test sends the member has left today. */
export async function testsLeftToday(userId: number, now = new Date()): Promise<number> {
  const r = await kv('ratelimit').get<unknown>(testsKey(userId));
  const cur = r ? TestDaySchema.safeParse(r.value).data : undefined;
  const used = cur?.day === campaignToday(now) ? cur.count : 0;
  return Math.max(0, STAFF_TESTS_PER_DAY - used);
}
