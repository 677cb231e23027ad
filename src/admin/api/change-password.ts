import { apiRequest } from '../../lib/client/api.ts';
import { passwordChanged } from '../../lib/client/auth-store.ts';
import type { ChangePasswordInput, PublicUser } from '../../lib/schemas/user.ts';

/** POST /api/auth/change-password; the returned user (mustChangePassword false) replaces the signed-in one. */
export async function changePassword(input: ChangePasswordInput): Promise<PublicUser> {
  const res = await apiRequest<{ success: boolean; user: PublicUser }>(
    'POST',
    '/api/auth/change-password',
    input,
  );
  passwordChanged(res.user);
  return res.user;
}
