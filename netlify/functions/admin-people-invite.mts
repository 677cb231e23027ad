import type { Config, Context } from '@netlify/functions';
import { audit } from '../../src/lib/server/audit/audit.ts';
import { requireUser } from '../../src/lib/server/auth/session.ts';
import { HttpError } from '../../src/lib/server/errors.ts';
import { allowMethods, handle, json } from '../../src/lib/server/http.ts';
import { getPerson } from '../../src/lib/server/people/person.ts';
import { inviteStateOf, revokeInviteOf } from '../../src/lib/server/supporters/invites.ts';

/**
 * A person's invite link for staff (docs/decisions/182-supporter-page.md):
 * - GET  /api/admin/people/:id/invite          the current code and its counts (every role)
 * - POST /api/admin/people/:id/invite/revoke   turns the code off (editors, admins; audited): it credits nobody
 *                                              from then on, and the supporter gets a new one on their page
 */
export default handle(async (req: Request, context: Context) => {
  const id = context.params?.id ?? '';
  const revoke = new URL(req.url).pathname.replace(/\/$/, '').endsWith('/revoke');
  allowMethods(req, revoke ? 'POST' : 'GET');
  const user = await requireUser(req, revoke ? { permission: 'edit_content' } : {});
  if (!/^[a-f0-9]{32}$/.test(id) || !(await getPerson(id))) throw new HttpError(404, 'Person not found');
  if (!revoke) return json(await inviteStateOf(id));
  const code = await revokeInviteOf(id);
  if (!code) throw new HttpError(409, 'This person has no live invite link');
  await audit(context, user, 'person.invite_revoke', {
    type: 'person',
    id,
    label: `Person ${id.slice(0, 8)}`,
  });
  return json(await inviteStateOf(id));
});

export const config: Config = {
  path: ['/api/admin/people/:id/invite', '/api/admin/people/:id/invite/revoke'],
};
