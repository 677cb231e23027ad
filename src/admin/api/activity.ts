import useSWR from 'swr';
import { apiRequest, queryFetcher } from '../../lib/client/api.ts';
import type { AuditCheckStep, AuditKind, AuditPage, AuditVerifyStatus } from '../../lib/schemas/audit.ts';
import { listKey, send } from './shared.ts';

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

/** The `activity` export's parameters: the filters that are set (docs/decisions/156-exports.md). */
export function activityExportParams(filters: ActivityFilters): Record<string, string> {
  return Object.fromEntries(
    Object.entries(params(filters)).flatMap(([k, v]) => (v === undefined ? [] : [[k, String(v)]])),
  );
}

export const ADMIN_ACTIVITY_VERIFICATION = '/api/admin/activity/verification';

/** One step of the incremental check (GET /api/admin/activity/verify), and where the full verification is. */
export function checkNewEntries(): Promise<AuditCheckStep & { full: AuditVerifyStatus }> {
  return apiRequest('GET', `${ADMIN_ACTIVITY}/verify`);
}

/** The full verification's state, polled every 2 s while it runs (GET /api/admin/activity/verify?full). */
export function useFullVerification() {
  return useSWR<{ full: AuditVerifyStatus }, Error>(`${ADMIN_ACTIVITY}/verify?full`, queryFetcher, {
    refreshInterval: (latest) =>
      latest?.full.state === 'running' || latest?.full.state === 'stalled' ? 2000 : 0,
  });
}

/**
 * Starts the full verification (or joins the one at work): a background function, answered 202 at once;
 * its progress is read with useFullVerification.
 */
export function startFullVerification(): Promise<unknown> {
  return send('POST', ADMIN_ACTIVITY_VERIFICATION);
}
