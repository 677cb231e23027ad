import type { Config, Context } from '@netlify/functions';
import { allowMethods, handle, respond } from '../../src/lib/server/http.ts';
import { inviteCookie, readInvite } from '../../src/lib/server/supporters/invites.ts';

/**
 * GET /r/<code>: a visit through a supporter's invite link (docs/decisions/182-supporter-page.md). A live code sets
 * the first-party cookie that credits its owner for 30 days; an unknown or revoked one sets nothing. Either way the
 * visitor lands on the home page, and nothing is written.
 */
export default handle(async (req: Request, context: Context) => {
  allowMethods(req, 'GET', 'HEAD');
  const code = context.params?.code ?? '';
  const inv = await readInvite(code);
  const headers: Record<string, string> = { Location: '/' };
  if (inv && !inv.revokedAt) headers['Set-Cookie'] = inviteCookie(inv.code);
  return respond(null, { status: 302, headers, cache: 'private, no-store' });
});

export const config: Config = { path: '/r/:code' };
