import { createSessionCookie } from '../../src/lib/server/auth/session.ts';
import { createUser } from '../../src/lib/server/auth/users.ts';
import type { Role } from '../../src/lib/schemas/permissions.ts';

export type Who = 'anonymous' | 'viewer' | 'editor' | 'admin' | 'inactive';

/**
 * Creates one user per role (plus an inactive admin) in the current store and
 * returns a cookie ("name=value") for each. The login endpoint is not on main
 * yet, so cookies are minted with createSessionCookie (same JWT as a login).
 */
export async function makeUsers(tag = 'u'): Promise<Record<Who, string | undefined>> {
  const mk = async (username: string, role: Role, isActive = true) => {
    const user = await createUser({ username: `${tag}-${username}`, email: `${tag}-${username}@example.org`, password: 'correct horse', role, isActive });
    return (await createSessionCookie(user)).split(';')[0] as string;
  };
  // One at a time: the local Blobs server's counter CAS is not atomic.
  const viewer = await mk('viewer', 'viewer');
  const editor = await mk('editor', 'editor');
  const admin = await mk('admin', 'admin');
  const inactive = await mk('inactive', 'admin', false);
  return { anonymous: undefined, viewer, editor, admin, inactive };
}
