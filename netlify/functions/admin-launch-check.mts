import type { Config, Context } from '@netlify/functions';
import { LaunchCheckResponseSchema } from '../../src/lib/schemas/launch-check.ts';
import { requireUser } from '../../src/lib/server/auth/session.ts';
import { allowMethods, handle, json } from '../../src/lib/server/http.ts';
import { getElectionCalendar } from '../../src/lib/server/election/calendar.ts';
import { calendarItems, settingItems } from '../../src/lib/server/launch-check.ts';

/**
 * GET /api/admin/launch-check (admins only, read only): the settings the live
 * site still lacks, read from this function's own environment, and the
 * election calendar when its election is over, for the dashboard's launch
 * checklist. The content half (placeholders in the site's
 * files) is fixed at build and built into the admin page
 * (docs/decisions/085-launch-gate.md). Never a secret's value.
 */
export default handle(async (req: Request, _context: Context) => {
  allowMethods(req, 'GET');
  await requireUser(req, { permission: 'manage_users' });
  const { calendar } = await getElectionCalendar();
  return json(
    LaunchCheckResponseSchema.parse({
      items: [...settingItems(process.env), ...calendarItems(calendar, new Date())],
    }),
  );
});

export const config: Config = { path: '/api/admin/launch-check' };
