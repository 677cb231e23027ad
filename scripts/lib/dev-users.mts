import { createUser, findUserByLogin } from '../../src/lib/server/auth/users.ts';

/**
 * Documented dev accounts (README), created only by `npm run seed` in local
 * mode. Under scripts/ so no production function bundle can contain them.
 */
export const DEV_USERS = [
  { username: 'admin', password: 'admin-dev-password', role: 'admin', firstName: 'Alex', lastName: 'Admin' },
  {
    username: 'editor',
    password: 'editor-dev-password',
    role: 'editor',
    firstName: 'Erin',
    lastName: 'Editor',
  },
  {
    username: 'viewer',
    password: 'viewer-dev-password',
    role: 'viewer',
    firstName: 'Vic',
    lastName: 'Viewer',
  },
] as const;

export async function seedDevUsers(): Promise<void> {
  for (const u of DEV_USERS) {
    if (await findUserByLogin(u.username)) continue;
    try {
      await createUser({ ...u, email: `${u.username}@example.org`, isActive: true });
    } catch {
      // A concurrent first request created it: the unique claim refused ours.
    }
  }
}
