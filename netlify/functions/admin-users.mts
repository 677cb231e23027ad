import type { Config, Context } from '@netlify/functions';
import { UserCreateSchema, UserUpdateSchema } from '../../src/lib/schemas/user.ts';
import { requireUser } from '../../src/lib/server/auth/session.ts';
import { audit, target } from '../../src/lib/server/audit/audit.ts';
import {
  createUser,
  deleteUser,
  getUser,
  usersPage,
  toPublicUser,
  updateUser,
} from '../../src/lib/server/auth/users.ts';
import { allowMethods, handle, idFrom, json, readJson } from '../../src/lib/server/http.ts';
import { pageQuery } from '../../src/lib/server/pagination.ts';

/** User management: admin only (spec section 6, manage_users). */
export default handle(async (req: Request, context: Context) => {
  const hasId = context.params?.id !== undefined;
  allowMethods(req, ...(hasId ? ['PUT', 'DELETE'] : ['GET', 'POST']));
  const admin = await requireUser(req, { permission: 'manage_users' });
  if (!hasId && req.method === 'GET') {
    const page = await usersPage(pageQuery(new URL(req.url)));
    return json({ ...page, users: page.users.map(toPublicUser) });
  }
  if (req.method === 'POST') {
    const user = await createUser(await readJson(req, UserCreateSchema));
    await audit(context, admin, 'user.create', target.user(user), {
      roleAfter: user.role,
      active: String(user.isActive),
    });
    return json({ user: toPublicUser(user) }, { status: 201 });
  }
  const id = idFrom(context);
  if (req.method === 'PUT') {
    const input = await readJson(req, UserUpdateSchema);
    const before = await getUser(id);
    const user = await updateUser(id, input);
    const kind = before?.isActive && !user.isActive ? 'user.deactivate' : 'user.update';
    await audit(
      context,
      admin,
      kind,
      target.user(user),
      userChangeDetails(before, user, Boolean(input.password)),
    );
    return json({ user: toPublicUser(user) });
  }
  const doomed = await getUser(id);
  await deleteUser(id, admin.id);
  await audit(context, admin, 'user.delete', doomed && target.user(doomed), {
    roleBefore: doomed?.role ?? '',
  });
  return json({ success: true });
});

/** Role before and after (always), and which other fields changed. */
function userChangeDetails(
  before: Awaited<ReturnType<typeof getUser>>,
  after: NonNullable<Awaited<ReturnType<typeof getUser>>>,
  passwordSet: boolean,
): Record<string, string> {
  const fields = (['username', 'email', 'firstName', 'lastName', 'isActive'] as const).filter(
    (f) => before && before[f] !== after[f],
  );
  return {
    roleBefore: before?.role ?? '',
    roleAfter: after.role,
    ...(fields.length || passwordSet
      ? { changed: [...fields, ...(passwordSet ? ['password'] : [])].join(', ') }
      : {}),
  };
}

export const config: Config = { path: ['/api/admin/users', '/api/admin/users/:id'] };
