import useSWR from 'swr';
import { queryFetcher } from '../../lib/client/api.ts';
import type { Overview, OverviewPeriod } from '../../lib/schemas/overview.ts';
import { listKey } from './shared.ts';

export const ADMIN_OVERVIEW = '/api/admin/overview';

/** The campaign at a glance for a period (answered from daily rollups, never the records). */
export function useOverview(period: OverviewPeriod) {
  return useSWR<Overview, Error>(listKey(ADMIN_OVERVIEW, { period }), queryFetcher);
}
