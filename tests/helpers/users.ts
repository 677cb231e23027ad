import * as loginFn from '../../netlify/functions/auth-login.mts';
import { createUser } from '../../src/lib/server/auth/users.ts';
import type { Role } from '../../src/lib/schemas/permissions.ts';
import { kv } from '../../src/lib/server/storage/stores.ts';
import { call, sessionCookie } from './http.ts';

let n = 0;

/** Creates a user and signs in through the real login handler; returns its cookie. */
export async function signedIn(role: Role, opts: { isActive?: boolean } = {}) {
  n += 1;
  const username = `${role}${n}-${Math.random().toString(36).slice(2, 7)}`;
  const password = `pw-${username}-secret`;
  const user = await createUser({
    username,
    email: `${username}@example.org`,
    password,
    role,
    firstName: role,
    lastName: 'Tester',
  });
  const res = await call(loginFn, '/api/auth/login', {
    json: { username, password },
    ip: `198.51.100.${n % 250}`,
  });
  if (res.status !== 200) throw new Error(`login failed: ${res.status} ${await res.text()}`);
  const cookie = sessionCookie(res);
  if (opts.isActive === false) {
    const { updateUser } = await import('../../src/lib/server/auth/users.ts');
    await updateUser(user.id, { isActive: false });
  }
  return { user, cookie, username, password };
}

/** Every email in the local outbox, oldest first. */
export async function outboxEmails(): Promise<{ to: string; subject: string; text: string }[]> {
  const out: { to: string; subject: string; text: string }[] = [];
  for await (const page of kv('outbox').keys('email/')) {
    for (const k of page.sort()) {
      const v = await kv('outbox').get<{ to: string; subject: string; text: string }>(k);
      if (v) out.push(v.value);
    }
  }
  return out;
}
