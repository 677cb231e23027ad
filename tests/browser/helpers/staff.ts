import type { Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, expect } from 'vitest';
import { baseURL, buildURL, launchBrowser, type BrowserSession } from './browser';

/*
 * The dashboard's people, outside and inside the browser: the API as a given
 * person (a real sign-in against the dev server), the browser's sign-in form,
 * and staff accounts of a test's own, so that test files running side by side
 * never depend on what another file's people did.
 */

export interface Session {
  cookie: string;
  username: string;
  id: number;
}

export async function apiAs(cookie: string | null, method: string, path: string, body?: unknown) {
  const res = await fetch(`${baseURL}${path}`, {
    method,
    headers: {
      Origin: baseURL,
      ...(cookie ? { cookie } : {}),
      ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}),
    },
    body: body !== undefined ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  let json: Record<string, unknown> | null = null;
  try {
    json = JSON.parse(text) as Record<string, unknown>;
  } catch {
    /* CSV or empty */
  }
  return { status: res.status, json, text, headers: res.headers };
}

export const cookieOf = (headers: Headers) =>
  headers
    .getSetCookie()
    .map((c) => c.split(';')[0]!)
    .filter((c) => !c.endsWith('='))
    .join('; ');

/** Signs in through the API; the seeded dev accounts' password is `${username}-dev-password`. */
export async function login(username: string, password = `${username}-dev-password`): Promise<Session> {
  const res = await apiAs(null, 'POST', '/api/auth/login', { username, password });
  expect(res.status, res.text).toBe(200);
  const user = res.json!.user as { id: number; username: string };
  return { cookie: cookieOf(res.headers), username: user.username, id: user.id };
}

let adminSession: Promise<Session> | undefined;

/** A staff account of the caller's own, created by the dev admin. */
export async function createStaff(
  role: 'admin' | 'editor' | 'viewer',
  name: string,
): Promise<{ username: string; password: string }> {
  // One sign-in of the seeded admin per file: each sign-in costs an argon2 check on the dev server.
  adminSession ??= login('admin');
  const admin = await adminSession;
  const username = name.slice(0, 40);
  const password = `${username}-password`;
  const res = await apiAs(admin.cookie, 'POST', '/api/admin/users', {
    username,
    email: `${username}@example.org`,
    password,
    role,
  });
  expect(res.status, res.text).toBe(201);
  return { username, password };
}

export async function expectToast(page: Page, title: string) {
  await page
    .locator('[data-sonner-toast]')
    .filter({ has: page.locator('[data-title]', { hasText: title }) })
    .first()
    .waitFor();
}

export async function signInPage(page: Page, username: string, password = `${username}-dev-password`) {
  await page.goto('/admin');
  await page.getByLabel('Username or Email').fill(username);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign In' }).click();
}

/** Logs out and waits for the sign-in form: a navigation right after the click could cancel the logout request. */
export async function signOut(page: Page) {
  await page.getByRole('button', { name: 'Logout' }).click();
  await page.getByRole('button', { name: 'Sign In' }).waitFor();
}

export async function openDashboard(
  browser: BrowserSession,
  username: string,
  password?: string,
): Promise<Page> {
  const page = await browser.newPage();
  await signInPage(page, username, password);
  await page.getByRole('tablist', { name: 'Dashboard sections' }).waitFor();
  return page;
}

/**
 * The file's browser for dashboard tests: opened before its tests on the production build (production
 * React, bundled scripts) with the dev server's API behind it (global-setup.ts `buildURL`), cookies
 * cleared before each test (everyone starts signed out), closed after the file.
 */
export function dashboardBrowser(): BrowserSession {
  let session: BrowserSession | undefined;
  beforeAll(async () => {
    session = await launchBrowser({ baseURL: buildURL });
  });
  afterAll(async () => {
    await session?.close();
  });
  beforeEach(async () => {
    await session!.context.clearCookies();
  });
  return {
    get context() {
      return session!.context;
    },
    newPage: (viewport) => session!.newPage(viewport),
    close: () => session!.close(),
  };
}
