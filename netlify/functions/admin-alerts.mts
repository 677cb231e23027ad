import type { Config, Context } from '@netlify/functions';
import { AlertsResponseSchema } from '../../src/lib/schemas/alerts.ts';
import { requireUser } from '../../src/lib/server/auth/session.ts';
import { todaysAlerts } from '../../src/lib/server/texting/alerts.ts';
import { smsBudgetToday } from '../../src/lib/server/texting/text-limits.ts';
import { allowMethods, handle, json } from '../../src/lib/server/http.ts';

/** GET /api/admin/alerts (every staff role): today's alerts and the confirmation texts sent against the daily cap. */
export default handle(async (req: Request, _context: Context) => {
  allowMethods(req, 'GET');
  await requireUser(req);
  const now = Date.now();
  const [alerts, sms] = await Promise.all([todaysAlerts(now), smsBudgetToday(now)]);
  return json(
    AlertsResponseSchema.parse({
      alerts,
      smsToday: { used: sms.used, max: sms.max, resetsAt: new Date(sms.windowEnd).toISOString() },
    }),
  );
});

export const config: Config = { path: '/api/admin/alerts' };
