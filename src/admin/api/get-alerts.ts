import useSWR from 'swr';
import { queryFetcher } from '../../lib/client/api.ts';
import type { AlertsResponse } from '../../lib/schemas/alerts.ts';

export const ADMIN_ALERTS = '/api/admin/alerts';

/** Today's staff alerts (e.g. the daily text cap reached), rechecked every minute. */
export function useAlerts() {
  return useSWR<AlertsResponse, Error>(ADMIN_ALERTS, queryFetcher, { refreshInterval: 60_000 });
}
