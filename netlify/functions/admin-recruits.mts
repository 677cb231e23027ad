import type { Config, Context } from '@netlify/functions';
import { z } from '../../src/lib/schemas/zod.ts';
import { audit } from '../../src/lib/server/audit/audit.ts';
import { requireUser } from '../../src/lib/server/auth/session.ts';
import { allowMethods, handle, json, readJson } from '../../src/lib/server/http.ts';
import {
  getRecruitsSettings,
  setRecruitsSettings,
  staffLeaderboard,
} from '../../src/lib/server/supporters/recruits.ts';

/**
 * The recruits leaderboard (docs/decisions/182-supporter-page.md):
 * - GET /api/admin/recruits             sign-ups credited per supporter, most first, with names (every role)
 * - PUT /api/admin/recruits {showOnMy}  show the top counts, without names, on supporters' /my (admins; audited)
 */
const SettingsSchema = z.strictObject({ showOnMy: z.boolean() });

export default handle(async (req: Request, context: Context) => {
  allowMethods(req, 'GET', 'PUT');
  if (req.method === 'GET') {
    await requireUser(req);
    return json({ leaders: await staffLeaderboard(), settings: await getRecruitsSettings() });
  }
  const user = await requireUser(req, { permission: 'admin' });
  const { showOnMy } = await readJson(req, SettingsSchema);
  const settings = await setRecruitsSettings(showOnMy, user.username);
  await audit(context, user, 'recruits.settings', null, { showOnMy: String(showOnMy) });
  return json({ settings });
});

export const config: Config = { path: '/api/admin/recruits' };
