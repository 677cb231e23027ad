import useSWR from 'swr';
import { useCallback } from 'react';
import { queryFetcher } from '../../lib/client/api.ts';
import { refresh, twoFactorChanged } from '../../lib/client/auth-store.ts';
import type { TwoFactorPolicy, TwoFactorSetup, TwoFactorStatus } from '../../lib/schemas/two-factor.ts';
import { send, useRevalidate } from './shared.ts';

/** Two-factor sign-in (docs/decisions/160-staff-sign-in-and-sessions.md): the signed-in member's own factor, and the admin side. */
export const ADMIN_TWO_FACTOR = '/api/admin/two-factor';

/** POST /api/auth/two-factor/setup: a new secret (QR code and text). */
export const startTwoFactorSetup = () => send<TwoFactorSetup>('POST', '/api/auth/two-factor/setup');

/**
 * POST /api/auth/two-factor/enable: the current password and the first code confirm; answers the
 * recovery codes (shown once). The server signs out every other session and re-issues this one's cookie.
 */
export async function enableTwoFactor(
  password: string,
  code: string,
): Promise<{ recoveryCodes: string[]; status: TwoFactorStatus }> {
  return send<{ recoveryCodes: string[]; status: TwoFactorStatus }>('POST', '/api/auth/two-factor/enable', {
    password,
    code,
  });
}

/** Called once the member has seen the recovery codes: re-reads their status (the dashboard then opens). */
export async function finishTwoFactorSetup(): Promise<void> {
  await refresh(true).catch(() => undefined);
}

/** What a sensitive change asks for: the current password and a code (or one recovery code). */
export type Reauth = { password: string } & ({ code: string } | { recoveryCode: string });

/** A typed second factor as the API takes it: six digits are an app code, anything else a recovery code. */
export function secondFactorOf(typed: string): { code: string } | { recoveryCode: string } {
  const t = typed.trim();
  return /^\d{6}$/.test(t.replace(/\s/g, '')) ? { code: t.replace(/\s/g, '') } : { recoveryCode: t };
}

/** POST /api/auth/two-factor/disable: current password and a code. */
export async function disableTwoFactor(input: Reauth) {
  await send('POST', '/api/auth/two-factor/disable', input);
  twoFactorChanged({ enabled: false, required: false, recoveryCodesLeft: 0 });
}

/** POST /api/auth/two-factor/recovery-codes: ten new recovery codes (shown once); the old ones stop working. */
export async function newRecoveryCodes(input: Reauth): Promise<string[]> {
  const res = await send<{ recoveryCodes: string[]; status: TwoFactorStatus }>(
    'POST',
    '/api/auth/two-factor/recovery-codes',
    input,
  );
  twoFactorChanged(res.status);
  return res.recoveryCodes;
}

export interface TwoFactorAdmin {
  policy: TwoFactorPolicy;
  /** Ids of members with two-factor on. */
  enrolled: number[];
}

export function useTwoFactorAdmin(enabled = true) {
  return useSWR<TwoFactorAdmin, Error>(enabled ? ADMIN_TWO_FACTOR : null, queryFetcher);
}

export function useSetTwoFactorPolicy() {
  const revalidate = useRevalidate();
  return useCallback(
    async (policy: TwoFactorPolicy) => {
      const res = await send<TwoFactorAdmin>('PUT', ADMIN_TWO_FACTOR, policy);
      await revalidate(ADMIN_TWO_FACTOR);
      return res;
    },
    [revalidate],
  );
}

/** DELETE /api/admin/users/:id/two-factor: an admin resets a member's second factor. */
export function useResetMemberTwoFactor() {
  const revalidate = useRevalidate();
  return useCallback(
    async (id: number) => {
      await send('DELETE', `/api/admin/users/${id}/two-factor`);
      await revalidate(ADMIN_TWO_FACTOR);
    },
    [revalidate],
  );
}
