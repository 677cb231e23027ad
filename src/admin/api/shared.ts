import { useCallback } from 'react';
import { useSWRConfig, type SWRConfiguration } from 'swr';
import { apiRequest } from '../../lib/client/api.ts';
import { handleAuthError } from '../../lib/client/auth-store.ts';

/**
 * Spec section 7: queries are not retried, not refetched on focus, reconnect or
 * interval. Lists are paged by the server; the previous page stays on screen
 * while the next one loads.
 */
export const SWR_DEFAULTS: SWRConfiguration = {
  shouldRetryOnError: false,
  revalidateOnFocus: false,
  revalidateOnReconnect: false,
  refreshInterval: 0,
  dedupingInterval: 2000,
  keepPreviousData: true,
  onError: (err: unknown) => {
    handleAuthError(err);
  },
};

export const ADMIN_NEWS = '/api/admin/news';
export const ADMIN_EVENTS = '/api/admin/events';
export const ADMIN_SOCIAL = '/api/admin/social-media-links';
export const ADMIN_USERS = '/api/admin/users';
export const ADMIN_METRICS = '/api/admin/metrics';
export const ADMIN_GOALS = '/api/admin/volunteer-goals';
export const ADMIN_MILESTONES = '/api/admin/milestones';

/** Public lists; spec section 7: their cache keys are invalidated after admin edits. */
export const PUBLIC_NEWS = '/api/news';
export const PUBLIC_EVENTS = '/api/events';
export const PUBLIC_SOCIAL = '/api/social-media-links';
export const PUBLIC_PROGRESS = '/api/campaign-metrics';

/** The swr key (and URL) of one page of a list. */
export function listKey(path: string, params: Record<string, string | number | undefined> = {}): string {
  const qs = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== '') qs.set(k, String(v));
  const s = qs.toString();
  return s ? `${path}?${s}` : path;
}

/** Revalidate every cached page of the given lists (all pages, all filters). */
export function useRevalidate(): (...paths: string[]) => Promise<void> {
  const { mutate } = useSWRConfig();
  return useCallback(
    async (...paths: string[]) => {
      await mutate(
        (key) => typeof key === 'string' && paths.some((p) => key === p || key.startsWith(`${p}?`)),
      );
    },
    [mutate],
  );
}

/** A write: on failure the auth store sees the error first (401 signs out, 403 mustChangePassword forces the change). */
export async function send<T>(method: 'POST' | 'PUT' | 'DELETE', url: string, data?: unknown): Promise<T> {
  try {
    return await apiRequest<T>(method, url, data);
  } catch (err) {
    handleAuthError(err);
    throw err;
  }
}
