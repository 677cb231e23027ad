import useSWR from 'swr';
import { queryFetcher } from '../../lib/client/api.ts';
import type { AuditKind, AuditPage } from '../../lib/schemas/audit.ts';
import { listKey } from './shared.ts';

export const ADMIN_ACTIVITY = '/api/admin/activity';
export const ACTIVITY_PAGE_SIZE = 50;

export interface ActivityFilters {
  actor?: number | undefined;
  kind?: AuditKind | undefined;
  /** YYYY-MM-DD, UTC days, both ends included. */
  from?: string | undefined;
  to?: string | undefined;
}

const params = (f: ActivityFilters) => ({ actor: f.actor, kind: f.kind, from: f.from, to: f.to });

/** GET /api/admin/activity (admin only): newest first, one page. */
export function useActivity(filters: ActivityFilters, page: number, pageSize = ACTIVITY_PAGE_SIZE) {
  return useSWR<AuditPage, Error>(
    listKey(ADMIN_ACTIVITY, { ...params(filters), page, pageSize }),
    queryFetcher,
  );
}

/** The CSV export of every entry matching the filters (a plain download link). */
export function activityCsvUrl(filters: ActivityFilters): string {
  return listKey(ADMIN_ACTIVITY, { ...params(filters), format: 'csv' });
}
