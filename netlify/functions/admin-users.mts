import type { Config, Context } from '@netlify/functions';
import { UserCreateSchema, UserUpdateSchema } from '../../src/lib/schemas/user.ts';
import { requireUser } from '../../src/lib/server/auth/session.ts';
import {
  createUser,
  deleteUser,
  listUsers,
  toPublicUser,
  updateUser,
} from '../../src/lib/server/auth/users.ts';
import { allowMethods, handle, idFrom, json, readJson } from '../../src/lib/server/http.ts';
import { pageResponse } from '../../src/lib/server/pagination.ts';

/** User management: admin only (spec section 6, manage_users). */
export default handle(async (req: Request, context: Context) => {
  const hasId = context.params?.id !== undefined;
  allowMethods(req, ...(hasId ? ['PUT', 'DELETE'] : ['GET', 'POST']));
  const admin = await requireUser(req, { permission: 'manage_users' });
  if (!hasId && req.method === 'GET') {
    return pageResponse('users', (await listUsers()).map(toPublicUser), req);
  }
  if (req.method === 'POST') {
    const user = await createUser(await readJson(req, UserCreateSchema));
    return json({ user: toPublicUser(user) }, { status: 201 });
  }
  const id = idFrom(context);
  if (req.method === 'PUT') {
    const user = await updateUser(id, await readJson(req, UserUpdateSchema));
    return json({ user: toPublicUser(user) });
  }
  await deleteUser(id, admin.id);
  return json({ success: true });
});

export const config: Config = { path: ['/api/admin/users', '/api/admin/users/:id'] };
