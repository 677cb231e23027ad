import { z } from 'zod';
import type { Role } from '../../schemas/permissions.ts';
import type { PublicUser, UserCreate, UserUpdate } from '../../schemas/user.ts';
import { PublicUserSchema, UserCreateSchema, UserUpdateSchema } from '../../schemas/user.ts';
import { HttpError } from '../errors.ts';
import type { Page, PageQuery } from '../../schemas/paging.ts';
import { ConflictError, update, upsert } from '../storage/compare-and-set.ts';
import { nextId } from '../storage/counters.ts';
import { hashed, key } from '../storage/keys.ts';
import type { KV } from '../storage/kv.ts';
import { readAll } from '../storage/listing.ts';
import { mapLimit } from '../storage/map-limit.ts';
import { kv } from '../storage/stores.ts';
import { assertStrongPassword } from './password-strength.ts';
import { hashPassword } from './passwords.ts';

/** The stored user: the public fields plus credential state that never leaves the server. */
export const StoredUserSchema = PublicUserSchema.extend({
  updatedAt: z.string(),
  passwordHash: z.string(),
  /** Bumped by logout, password change/reset, role change, deactivation: old JWTs then fail. */
  tokenVersion: z.number().int(),
  /**
   * Bumped by every password event (change, reset, admin-set, use of a
   * temporary password). Reset links carry the version they were issued
   * under and die when it moves on; the temporary password is cleared in the
   * same write. Records from before this field read as 0.
   */
  passwordVersion: z.number().int().default(0),
  tempPasswordHash: z.string().nullable(),
  tempPasswordExpiresAt: z.string().nullable(),
  /**
   * The member's own mobile phone (E.164), set only by a texted code (broadcasts/staff-phone.ts): the one number a
   * broadcast's test text goes to (docs/decisions/152-broadcasts.md). Records from before read as none.
   */
  phone: z.string().nullable().default(null),
  phoneVerifiedAt: z.string().nullable().default(null),
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

/**
 * One page of the users, by id (User Management; docs/decisions/155-inbox-and-staff-lists.md): a listing of
 * the user keys (one call per 1,000 users) and the page's records, whatever the number of users.
 */
export async function usersPage(q: PageQuery): Promise<Page<'users', StoredUser>> {
  const ids: number[] = [];
  for await (const page of users().keys('user/')) {
    for (const k of page) {
      const id = Number(k.slice('user/'.length));
      if (Number.isSafeInteger(id) && id > 0) ids.push(id);
    }
  }
  ids.sort((a, b) => a - b);
  const start = (q.page - 1) * q.pageSize;
  const found = await mapLimit(ids.slice(start, start + q.pageSize), 16, (id) => getUser(id));
  return {
    users: found.filter((u): u is StoredUser => u !== null),
    total: ids.length,
    page: q.page,
    pageSize: q.pageSize,
  };
}

/** Claims a unique index entry for this user, or 409. */
/** How long a claim may wait for its user record before another create may take it over. */
const CLAIM_GRACE_MS = 5 * 60_000;

async function claim(k: string, id: number, message: string, now = Date.now()): Promise<void> {
  if (await users().create(k, { id, at: now })) return;
  const existing = await users().get<{ id: number; at?: number }>(k);
  if (existing?.value.id === id) return;
  // A stale entry whose user no longer uses the name can be taken over; a fresh claim whose user
  // record is not written yet (a create still hashing its password) is not stale.
  if (existing) {
    const owner = await getUser(existing.value.id);
    const stillOwned = owner && (usernameKey(owner.username) === k || emailKey(owner.email) === k);
    const inFlight = !owner && existing.value.at !== undefined && now - existing.value.at < CLAIM_GRACE_MS;
    if (!stillOwned && !inFlight && (await users().replace(k, { id, at: now }, existing.etag))) return;
  }
  throw new HttpError(409, message);
}

export async function createUser(input: UserCreate, now = new Date()): Promise<StoredUser> {
  const data = UserCreateSchema.parse(input);
  // The slow part first, so a claimed name waits for its record as briefly as possible.
  await assertStrongPassword(data.password, data);
  const passwordHash = await hashPassword(data.password);
  const id = await nextId('users');
  await claim(usernameKey(data.username), id, 'Username already exists');
  try {
    await claim(emailKey(data.email), id, 'Email already exists');
  } catch (err) {
    const mine = await users().get<{ id: number }>(usernameKey(data.username));
    if (mine?.value.id === id) await users().delete(usernameKey(data.username));
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
    passwordHash,
    tokenVersion: 0,
    passwordVersion: 0,
    mustChangePassword: false,
    tempPasswordHash: null,
    tempPasswordExpiresAt: null,
    phone: null,
    phoneVerifiedAt: null,
  };
  if (!(await users().create(userKey(id), user))) throw new HttpError(409, 'Please try again');
  if (isActiveAdmin(user)) await joinAdminRoster(id);
  return user;
}

/**
 * The account with a new password (or, with `keepPassword`, after a
 * temporary password was used): one password, one set of live credentials.
 * The password version moves on, so every reset link issued before dies; the
 * temporary password is cleared; every session is revoked (token version).
 */
export function withNewPassword(
  u: StoredUser,
  change: { passwordHash: string; mustChangePassword: boolean },
  now = new Date(),
): StoredUser {
  return {
    ...u,
    passwordHash: change.passwordHash,
    mustChangePassword: change.mustChangePassword,
    passwordVersion: u.passwordVersion + 1,
    tokenVersion: u.tokenVersion + 1,
    tempPasswordHash: null,
    tempPasswordExpiresAt: null,
    updatedAt: now.toISOString(),
  };
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

// ---------------------------------------------------------------------------
// The last-admin rule, tied to a compare-and-set write.
//
// `admin-roster` lists the ids of the active admins. It may list fewer admins
// than there are (an admin joins it only after the user record says admin,
// and leaves it before the record stops saying so), never more. Demoting,
// deactivating or deleting an admin first removes the id with a CAS write that
// refuses to leave the roster empty; so of two admins demoting each other at
// once, one write wins and the other is refused (docs/decisions/151-texting.md).

const ROSTER_KEY = 'admin-roster';
const RosterSchema = z.object({ ids: z.array(z.number().int().positive()) });
type Roster = z.infer<typeof RosterSchema>;

const isActiveAdmin = (u: Pick<StoredUser, 'role' | 'isActive'>) => u.role === 'admin' && u.isActive;

/** The roster, rebuilt from the user records when it does not exist yet (created once, onlyIfNew). */
async function rosterOrRebuild(current: Roster | null): Promise<Roster> {
  if (current) return RosterSchema.parse(current);
  return { ids: (await listUsers()).filter(isActiveAdmin).map((u) => u.id) };
}

/** Adds an admin to the roster. No roster yet: nothing to do, its first use rebuilds it from the users. */
async function joinAdminRoster(id: number): Promise<void> {
  if (!(await users().get(ROSTER_KEY))) return;
  await update<Roster>(users(), ROSTER_KEY, (cur) => {
    const r = RosterSchema.parse(cur);
    return r.ids.includes(id) ? r : { ids: [...r.ids, id].sort((a, b) => a - b) };
  });
}

/** Removes an admin from the roster, or 409 when it would leave no active admin. */
async function leaveAdminRoster(id: number, refusal: string): Promise<void> {
  await upsert<Roster>(users(), ROSTER_KEY, async (cur) => {
    const r = await rosterOrRebuild(cur);
    const rest = r.ids.filter((x) => x !== id);
    if (rest.length === 0) throw new HttpError(409, refusal);
    return { ids: rest };
  });
}

/** After a failed demotion or deletion: back on the roster only if the record still says active admin. */
async function rejoinIfStillAdmin(id: number): Promise<void> {
  const u = await getUser(id).catch(() => null);
  if (u && isActiveAdmin(u)) await joinAdminRoster(id).catch(() => undefined);
}

export const LAST_ADMIN_UPDATE = 'The last active admin cannot be demoted or deactivated';
export const LAST_ADMIN_DELETE = 'The last active admin cannot be deleted';

/** Admin edit of a user. Blank password means unchanged. The last active admin cannot be demoted or deactivated. */
export async function updateUser(id: number, input: UserUpdate, now = new Date()): Promise<StoredUser> {
  const data = UserUpdateSchema.parse(input);
  const before = await getUser(id);
  if (!before) throw new HttpError(404, 'User not found');
  const losesAdmin =
    isActiveAdmin(before) && ((data.role !== undefined && data.role !== 'admin') || data.isActive === false);
  if (data.username && data.username !== before.username)
    await claim(usernameKey(data.username), id, 'Username already exists');
  if (data.email && data.email !== before.email)
    await claim(emailKey(data.email), id, 'Email already exists');
  if (data.password) await assertStrongPassword(data.password, { ...before, ...data });
  const passwordHash = data.password ? await hashPassword(data.password) : null;
  if (losesAdmin) await leaveAdminRoster(id, LAST_ADMIN_UPDATE);
  let after: StoredUser;
  try {
    after = await changeUser(id, (u) => {
      const next: StoredUser = {
        ...u,
        username: data.username ?? u.username,
        email: data.email ?? u.email,
        role: data.role ?? u.role,
        firstName: data.firstName ?? u.firstName,
        lastName: data.lastName ?? u.lastName,
        isActive: data.isActive ?? u.isActive,
        updatedAt: now.toISOString(),
      };
      // Promoted concurrently after we read it: it is not in the roster's count we changed. Try again.
      if (isActiveAdmin(u) && !isActiveAdmin(next) && !losesAdmin) throw new ConflictError();
      const revoke =
        (data.role !== undefined && data.role !== u.role) || (data.isActive === false && u.isActive);
      if (passwordHash) return withNewPassword(next, { passwordHash, mustChangePassword: false }, now);
      return { ...next, tokenVersion: revoke ? u.tokenVersion + 1 : u.tokenVersion };
    });
  } catch (err) {
    if (losesAdmin) await rejoinIfStillAdmin(id);
    throw err;
  }
  if (!losesAdmin && isActiveAdmin(after) && !isActiveAdmin(before)) await joinAdminRoster(id);
  if (after.username !== before.username) await users().delete(usernameKey(before.username));
  if (after.email !== before.email) await users().delete(emailKey(before.email));
  return after;
}

export async function deleteUser(id: number, actingUserId: number): Promise<void> {
  const user = await getUser(id);
  if (!user) throw new HttpError(404, 'User not found');
  if (id === actingUserId) throw new HttpError(409, 'You cannot delete your own account');
  const wasAdmin = isActiveAdmin(user);
  if (wasAdmin) await leaveAdminRoster(id, LAST_ADMIN_DELETE);
  try {
    await users().delete(userKey(id));
  } catch (err) {
    if (wasAdmin) await rejoinIfStillAdmin(id);
    throw err;
  }
  await users().delete(usernameKey(user.username));
  await users().delete(emailKey(user.email));
}

export async function hasAnyAdmin(): Promise<boolean> {
  return (await listUsers()).some((u) => u.role === 'admin' && u.isActive);
}

export type { Role };
