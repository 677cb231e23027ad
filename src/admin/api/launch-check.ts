import useSWR from 'swr';
import { queryFetcher } from '../../lib/client/api.ts';
import type { LaunchCheckResponse } from '../../lib/schemas/launch-check.ts';

export const ADMIN_LAUNCH_CHECK = '/api/admin/launch-check';

/** The settings the live site still lacks (admins only; docs/decisions/085-launch-gate.md). */
export function useLaunchSettings() {
  return useSWR<LaunchCheckResponse, Error>(ADMIN_LAUNCH_CHECK, queryFetcher);
}
