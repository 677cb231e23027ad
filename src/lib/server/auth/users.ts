import { z } from 'zod';
import { RoleSchema, type Role } from '../../schemas/permissions.ts';
import type { PublicUser, UserCreate, UserUpdate } from '../../schemas/user.ts';
import { UserCreateSchema, UserUpdateSchema } from '../../schemas/user.ts';
import { HttpError } from '../errors.ts';
import { hashed, key, kv, nextId, readAll, update, type KV } from '../store.ts';
import { hashPassword } from './passwords.ts';

/** The stored user: the public fields plus credential state that never leaves the server. */
export const StoredUserSchema = z.object({
  id: z.number().int().positive(),
  username: z.string(),
  email: z.string(),
  role: RoleSchema,
  firstName: z.string(),
  lastName: z.string(),
  isActive: z.boolean(),
  lastLogin: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  passwordHash: z.string(),
  /** Bumped by logout, password change/reset, role change, deactivation: old JWTs then fail. */
  tokenVersion: z.number().int(),
  mustChangePassword: z.boolean(),
  tempPasswordHash: z.string().nullable(),
  tempPasswordExpiresAt: z.string().nullable(),
});
export type StoredUser = z.infer<typeof StoredUserSchema>;

const users = (): KV => kv('users');
const userKey = (id: number) => key('user', id);
const usernameKey = (username: string) => key('by-username', hashed(username));
const emailKey = (email: string) => key('by-email', hashed(email));

export function toPublicUser(u: StoredUser): PublicUser {
  return {
    id: u.id,
    username: u.username,
    email: u.email,
    role: u.role,
    firstName: u.firstName,
    lastName: u.lastName,
    isActive: u.isActive,
    lastLogin: u.lastLogin,
    createdAt: u.createdAt,
    mustChangePassword: u.mustChangePassword,
  };
}

export async function getUser(id: number): Promise<StoredUser | null> {
  const r = await users().get<unknown>(userKey(id));
  if (!r) return null;
  const parsed = StoredUserSchema.safeParse(r.value);
  return parsed.success ? parsed.data : null;
}

/** Finds a user by username or email (case-insensitive). */
export async function findUserByLogin(identifier: string): Promise<StoredUser | null> {
  const id = identifier.trim().toLowerCase();
  const ref =
    (await users().get<{ id: number }>(id.includes('@') ? emailKey(id) : usernameKey(id))) ??
    (id.includes('@') ? null : await users().get<{ id: number }>(emailKey(id)));
  if (!ref) return null;
  const user = await getUser(ref.value.id);
  // An index entry left by an interrupted change must match the record.
  if (!user || (user.username !== id && user.email !== id)) return null;
  return user;
}

export async function findUserByEmail(email: string): Promise<StoredUser | null> {
  const ref = await users().get<{ id: number }>(emailKey(email.trim().toLowerCase()));
  if (!ref) return null;
  const user = await getUser(ref.value.id);
  return user?.email === email.trim().toLowerCase() ? user : null;
}

export async function listUsers(): Promise<StoredUser[]> {
  const all = await readAll<unknown>(users(), 'user/');
  return all
    .map((u) => StoredUserSchema.safeParse(u))
    .filter((r) => r.success)
    .map((r) => r.data)
    .sort((a, b) => a.id - b.id);
}

/** Claims a unique index entry for this user, or 409. */
async function claim(k: string, id: number, message: string): Promise<void> {
  if (await users().create(k, { id })) return;
  const existing = await users().get<{ id: number }>(k);
  if (existing?.value.id === id) return;
  // A stale entry whose user no longer uses the name can be taken over.
  if (existing) {
    const owner = await getUser(existing.value.id);
    const stillOwned = owner && (usernameKey(owner.username) === k || emailKey(owner.email) === k);
    if (!stillOwned && (await users().replace(k, { id }, existing.etag))) return;
  }
  throw new HttpError(409, message);
}

export async function createUser(input: UserCreate, now = new Date()): Promise<StoredUser> {
  const data = UserCreateSchema.parse(input);
  const id = await nextId('users');
  await claim(usernameKey(data.username), id, 'Username already exists');
  try {
    await claim(emailKey(data.email), id, 'Email already exists');
  } catch (err) {
    await users().delete(usernameKey(data.username));
    throw err;
  }
  const stamp = now.toISOString();
  const user: StoredUser = {
    id,
    username: data.username,
    email: data.email,
    role: data.role,
    firstName: data.firstName,
    lastName: data.lastName,
    isActive: data.isActive,
    lastLogin: null,
    createdAt: stamp,
    updatedAt: stamp,
    passwordHash: await hashPassword(data.password),
    tokenVersion: 0,
    mustChangePassword: false,
    tempPasswordHash: null,
    tempPasswordExpiresAt: null,
  };
  if (!(await users().create(userKey(id), user))) throw new HttpError(409, 'Please try again');
  return user;
}

/** Applies a change to a user under optimistic concurrency. 404 when missing. */
export async function changeUser(
  id: number,
  change: (u: StoredUser) => StoredUser | Promise<StoredUser>,
): Promise<StoredUser> {
  const next = await update<StoredUser>(users(), userKey(id), async (cur) =>
    change(StoredUserSchema.parse(cur)),
  );
  if (!next) throw new HttpError(404, 'User not found');
  return next;
}

async function countOtherActiveAdmins(id: number): Promise<number> {
  return (await listUsers()).filter((u) => u.id !== id && u.role === 'admin' && u.isActive).length;
}

/** Admin edit of a user. Blank password means unchanged. The last active admin cannot be demoted or deactivated. */
export async function updateUser(id: number, input: UserUpdate, now = new Date()): Promise<StoredUser> {
  const data = UserUpdateSchema.parse(input);
  const before = await getUser(id);
  if (!before) throw new HttpError(404, 'User not found');
  const losesAdmin =
    before.role === 'admin' &&
    before.isActive &&
    ((data.role !== undefined && data.role !== 'admin') || data.isActive === false);
  if (losesAdmin && (await countOtherActiveAdmins(id)) === 0) {
    throw new HttpError(409, 'The last active admin cannot be demoted or deactivated');
  }
  if (data.username && data.username !== before.username)
    await claim(usernameKey(data.username), id, 'Username already exists');
  if (data.email && data.email !== before.email)
    await claim(emailKey(data.email), id, 'Email already exists');
  const passwordHash = data.password ? await hashPassword(data.password) : null;
  const after = await changeUser(id, (u) => {
    const revoke =
      passwordHash !== null ||
      (data.role !== undefined && data.role !== u.role) ||
      (data.isActive === false && u.isActive);
    return {
      ...u,
      username: data.username ?? u.username,
      email: data.email ?? u.email,
      role: data.role ?? u.role,
      firstName: data.firstName ?? u.firstName,
      lastName: data.lastName ?? u.lastName,
      isActive: data.isActive ?? u.isActive,
      passwordHash: passwordHash ?? u.passwordHash,
      mustChangePassword: passwordHash ? false : u.mustChangePassword,
      tokenVersion: revoke ? u.tokenVersion + 1 : u.tokenVersion,
      updatedAt: now.toISOString(),
    };
  });
  if (after.username !== before.username) await users().delete(usernameKey(before.username));
  if (after.email !== before.email) await users().delete(emailKey(before.email));
  return after;
}

export async function deleteUser(id: number, actingUserId: number): Promise<void> {
  const user = await getUser(id);
  if (!user) throw new HttpError(404, 'User not found');
  if (id === actingUserId) throw new HttpError(409, 'You cannot delete your own account');
  if (user.role === 'admin' && user.isActive && (await countOtherActiveAdmins(id)) === 0) {
    throw new HttpError(409, 'The last active admin cannot be deleted');
  }
  await users().delete(userKey(id));
  await users().delete(usernameKey(user.username));
  await users().delete(emailKey(user.email));
}

export async function hasAnyAdmin(): Promise<boolean> {
  return (await listUsers()).some((u) => u.role === 'admin' && u.isActive);
}

export type { Role };
