import { passwordChanged } from '../../lib/client/auth-store.ts';
import type { ChangePasswordInput, PublicUser } from '../../lib/schemas/user.ts';
import { send } from './shared.ts';

/**
 * POST /api/auth/change-password; the returned user (mustChangePassword false) replaces the signed-in one.
 * A failure goes past the auth store first: too many wrong passwords sign the session out.
 */
export async function changePassword(input: ChangePasswordInput): Promise<PublicUser> {
  const res = await send<{ success: boolean; user: PublicUser }>('POST', '/api/auth/change-password', input);
  passwordChanged(res.user);
  return res.user;
}
