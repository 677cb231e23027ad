import { z } from './zod.ts';

/**
 * Staff exports prepared in the background (docs/decisions/156-exports.md): the
 * request that starts one, the job stored while it runs, and what the dashboard is told.
 */

/** POST /api/admin/exports: which export (a name of exports/registry.ts) and its parameters. */
export const ExportRequestSchema = z.strictObject({
  source: z.string().min(1).max(40),
  params: z.record(z.string().max(40), z.string().max(200)).default({}),
});
export type ExportRequest = z.output<typeof ExportRequestSchema>;

export const EXPORT_STATUSES = ['queued', 'running', 'done', 'failed'] as const;
export type ExportStatus = (typeof EXPORT_STATUSES)[number];

const iso = z.string().min(1);

/** One stored file of an export (gzip; a very large export has several, each a whole CSV). */
export const ExportPartSchema = z.object({
  key: z.string(),
  /** Bytes stored (gzip) and bytes of the CSV itself. */
  bytes: z.number().int().min(0),
  csvBytes: z.number().int().min(0),
  rows: z.number().int().min(0),
  /** The file's name when an export writes several lists (each its own CSV); absent: the job's filename. */
  filename: z.string().optional(),
});

/** An export job (store `exports`, key `job/<id>`). */
export const StoredExportJobSchema = z.object({
  id: z.string().regex(/^[a-f0-9]{32}$/),
  source: z.string(),
  params: z.record(z.string(), z.string()),
  ownerId: z.number().int().positive(),
  filename: z.string(),
  status: z.enum(EXPORT_STATUSES),
  createdAt: iso,
  updatedAt: iso,
  /** Rows expected (known when the export starts) and written so far. */
  total: z.number().int().min(0).nullable(),
  rows: z.number().int().min(0),
  /** Which run wrote the files (a retried background run starts again as attempt + 1). */
  attempt: z.number().int().min(0),
  /** The running worker's last sign of life: a worker silent for EXPORT_STALE_MS has died. */
  heartbeatAt: iso.nullable(),
  /** sha256 of the token that lets the background function run this job (sent once, never stored). */
  runTokenHash: z.string(),
  parts: z.array(ExportPartSchema),
  error: z.string().nullable(),
});
export type StoredExportJob = z.infer<typeof StoredExportJobSchema>;

/** What the dashboard is told about an export. */
export interface ExportJobView {
  id: string;
  status: ExportStatus;
  filename: string;
  rows: number;
  total: number | null;
  createdAt: string;
  error: string | null;
  /** When done: one signed link per file, valid until `linksExpireAt`. */
  downloads: { url: string; filename: string; rows: number; bytes: number }[];
  linksExpireAt: string | null;
}
