import useSWR from 'swr';
import { queryFetcher } from '../../lib/client/api.ts';
import type { ExportJobView } from '../../lib/schemas/exports.ts';
import { send } from './shared.ts';

export const ADMIN_EXPORTS = '/api/admin/exports';

export type ExportJob = ExportJobView;

/**
 * POST /api/admin/exports: starts a staff CSV export by name (docs/decisions/156-exports.md).
 * A small one comes back done; a large one queued, written by the background function.
 */
export async function startExport(source: string, params: Record<string, string>): Promise<ExportJob> {
  return (await send<{ job: ExportJob }>('POST', ADMIN_EXPORTS, { source, params })).job;
}

const working = (job: ExportJob | undefined) => job?.status === 'queued' || job?.status === 'running';

/** GET /api/admin/exports/:id: the job, polled every second while it is queued or running. */
export function useExportJob(id: string | null) {
  return useSWR<{ job: ExportJob }, Error>(id ? `${ADMIN_EXPORTS}/${id}` : null, queryFetcher, {
    refreshInterval: (data) => (working(data?.job) ? 1000 : 0),
  });
}
