import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { once } from 'node:events';
import { createGunzip, createGzip, type Gzip } from 'node:zlib';
import {
  StoredExportJobSchema,
  type ExportJobView,
  type ExportRequest,
  type StoredExportJob,
} from '../../schemas/exports.ts';
import { audit, type Actor } from '../audit/audit.ts';
import { userMay } from '../auth/session.ts';
import type { StoredUser } from '../auth/users.ts';
import { appSettings } from '../app-env.ts';
import { derivedKey } from '../derived-keys.ts';
import { env } from '../env.ts';
import { HttpError } from '../errors.ts';
import { download, respond } from '../http.ts';
import { update } from '../storage/compare-and-set.ts';
import { key } from '../storage/keys.ts';
import { kv } from '../storage/stores.ts';
import { BOM, csvCell, csvHeader, csvLines } from './csv.ts';
import { exportKind } from './registry.ts';
import type { ExportSource } from '../export-source.ts';

/**
 * The one export mechanism of the staff CSVs (docs/decisions/156-exports.md).
 *
 * - Up to EXPORT_LIMITS.directRows rows, a list's `?format=csv` answers the file directly, and
 *   POST /api/admin/exports writes it at once: both well inside a synchronous function's
 *   time and response limits.
 * - Above that, POST /api/admin/exports stores a job and starts the background function
 *   (/api/exports/run, 15 minutes), which reads the rows, writes the file into Blobs
 *   gzip-compressed (a new file past EXPORT_LIMITS.partMaxGz bytes, each a whole CSV, so every download
 *   stays under the 20 MB streamed-response limit) and records its progress on the job;
 *   the dashboard polls the job and is given signed download links that expire after
 *   LINK_TTL_MS, valid only for the member who started the export. Files and jobs are
 *   deleted after FILE_TTL_MS (export-cleanup, hourly).
 *
 * Every export is audited when it is started, whichever path.
 */

export const EXPORT_LIMITS = {
  /** Rows a list's `?format=csv` answers directly, and POST /api/admin/exports writes at once. */
  directRows: 5000,
  /** Compressed bytes per stored file: under the 20 MB a streamed function response may carry. */
  partMaxGz: 16 * 1024 * 1024,
};
const LIMITS = { ...EXPORT_LIMITS };

/** APP_ENV=test only: smaller limits (e.g. a file per few rows); null restores. */
export function setExportLimits(patch: Partial<typeof EXPORT_LIMITS> | null): void {
  if (appSettings().APP_ENV !== 'test')
    throw new Error('Export limits can only be changed under APP_ENV=test');
  Object.assign(LIMITS, EXPORT_LIMITS, patch ?? {});
}
export const LINK_TTL_MS = 15 * 60_000;
export const FILE_TTL_MS = 24 * 60 * 60_000;
/** A running export silent this long has died (the worker writes its progress every few seconds). */
export const EXPORT_STALE_MS = 2 * 60_000;
/** The background function's path. */
export const EXPORT_RUN_PATH = '/api/exports/run';

const jobs = () => kv('exports');
const jobKey = (id: string) => key('job', id);
const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

/** The answer to a list's `?format=csv` that is too long to answer directly. */
export function tooLongMessage(rows: number): string {
  return (
    `This export has ${rows.toLocaleString('en-US')} rows, more than ${LIMITS.directRows.toLocaleString('en-US')} ` +
    'can be sent at once. Use Export CSV in the dashboard: it prepares the file in the background.'
  );
}

/** A small export's whole file; 413 past EXPORT_LIMITS.directRows rows. */
async function directCsv(source: ExportSource): Promise<Response> {
  if (source.files) throw new HttpError(400, 'This export is several files: use Export in the dashboard.');
  const rows = source.total ?? 0;
  if (rows > LIMITS.directRows) throw new HttpError(413, tooLongMessage(rows), { rows });
  let body = '';
  for await (const line of csvLines(source)) body += line;
  return download(body, source.filename, 'text/csv; charset=utf-8');
}

/**
 * A list's `?format=csv` (docs/decisions/156-exports.md): the registered
 * export `name` with the list's parameters, its permission checked, answered as the file itself up to
 * EXPORT_LIMITS.directRows rows, else 413 pointing at Export CSV (the background export); audited when answered.
 */
export async function directExport(
  user: StoredUser,
  context: { ip?: string },
  name: string,
  raw: Record<string, string>,
  now = new Date(),
): Promise<Response> {
  const kind = exportKind(name);
  if (!userMay(user, kind.permission)) throw new HttpError(403, "You don't have permission to do that");
  const params = kind.params(raw);
  const source = await kind.open(params, now);
  const res = await directCsv(source);
  const entry = kind.audit(params, source);
  await audit({ ip: context.ip ?? 'unknown' }, actorOf(user), entry.kind, entry.target, entry.details);
  return res;
}

// ---------------------------------------------------------------------------
// Starting an export

type Kicker = (run: { id: string; token: string }) => Promise<void>;

/** Production and `npm run dev`: a POST to the background function (it answers 202 at once). */
const kickOverHttp: Kicker = async (run) => {
  const res = await fetch(new URL(EXPORT_RUN_PATH, env().SITE_URL), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(run),
    signal: AbortSignal.timeout(5000),
  });
  await res.body?.cancel();
  if (res.status !== 202 && !res.ok) throw new Error(`the background export answered ${res.status}`);
};
let kicker: Kicker = kickOverHttp;

/** Tests: run the background step another way (e.g. call the function's handler); null restores HTTP. */
export function setExportKicker(next: Kicker | null): void {
  kicker = next ?? kickOverHttp;
}

const actorOf = (user: StoredUser): Actor => ({ id: user.id, username: user.username });

/**
 * Starts an export for a member: checks the export's permission and parameters, audits
 * it, stores the job, and either writes a small file at once or hands the job to the
 * background function.
 */
export async function startExport(
  user: StoredUser,
  request: ExportRequest,
  context: { ip?: string },
  now = new Date(),
): Promise<ExportJobView> {
  const kind = exportKind(request.source);
  if (!userMay(user, kind.permission)) throw new HttpError(403, "You don't have permission to do that");
  const params = kind.params(request.params);
  const source = await kind.open(params, now);
  const entry = kind.audit(params, source);
  await audit({ ip: context.ip ?? 'unknown' }, actorOf(user), entry.kind, entry.target, entry.details);
  const id = randomBytes(16).toString('hex');
  const token = randomBytes(32).toString('base64url');
  const at = now.toISOString();
  const job: StoredExportJob = {
    id,
    source: request.source,
    params,
    ownerId: user.id,
    filename: source.filename,
    status: 'queued',
    createdAt: at,
    updatedAt: at,
    total: source.total ?? null,
    rows: 0,
    attempt: 0,
    heartbeatAt: null,
    runTokenHash: sha256(token),
    parts: [],
    error: null,
  };
  if (!(await jobs().create(jobKey(id), job))) throw new Error('export id collision');
  if ((source.total ?? Infinity) <= LIMITS.directRows) {
    await runExport(id, token, source);
  } else {
    try {
      await kicker({ id, token });
    } catch (err) {
      console.error('[exports] could not start the background export', err);
      await update<StoredExportJob>(jobs(), jobKey(id), (cur) => ({
        ...cur,
        status: 'failed',
        error: 'The export could not be started. Please try again.',
        updatedAt: new Date().toISOString(),
      }));
    }
  }
  return viewOf(await loadJob(id), now);
}

// ---------------------------------------------------------------------------
// Running one (the background function, or inline for a small one)

class Superseded extends Error {}

/** Writes one gzip file of CSV lines, watching its compressed size. */
class PartWriter {
  private readonly gz: Gzip = createGzip({ level: 6 });
  private readonly out: Buffer[] = [];
  gzBytes = 0;
  csvBytes = 0;
  rows = 0;
  private pending = '';

  constructor() {
    this.gz.on('data', (b: Buffer) => {
      this.out.push(b);
      this.gzBytes += b.length;
    });
  }

  async write(line: string): Promise<void> {
    this.pending += line;
    this.csvBytes += Buffer.byteLength(line);
    if (this.pending.length >= 256 * 1024) await this.flush();
  }

  private async flush(): Promise<void> {
    if (!this.pending) return;
    const chunk = this.pending;
    this.pending = '';
    if (!this.gz.write(chunk)) await once(this.gz, 'drain');
  }

  async end(): Promise<Buffer> {
    await this.flush();
    const ended = once(this.gz, 'end');
    this.gz.end();
    await ended;
    return Buffer.concat(this.out);
  }
}

const toArrayBuffer = (b: Buffer): ArrayBuffer =>
  b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) as ArrayBuffer;

/**
 * Runs an export job: claims it (a job done, failed or run by a live worker is left
 * alone; a worker silent for EXPORT_STALE_MS is taken over as the next attempt), writes
 * its files and records its progress. `source` is passed when the caller has opened it.
 */
export async function runExport(id: string, token: string, opened?: ExportSource): Promise<StoredExportJob> {
  const found = await jobs().get<unknown>(jobKey(id));
  const parsed = found ? StoredExportJobSchema.safeParse(found.value) : null;
  if (!parsed?.success) throw new HttpError(404, 'Not found');
  const tokenHash = Buffer.from(sha256(token), 'hex');
  const stored = Buffer.from(parsed.data.runTokenHash, 'hex');
  if (stored.length !== tokenHash.length || !timingSafeEqual(stored, tokenHash))
    throw new HttpError(403, 'Not allowed');

  let attempt = 0;
  const claimed = await update<StoredExportJob>(jobs(), jobKey(id), (cur) => {
    const live =
      cur.status === 'running' &&
      cur.heartbeatAt !== null &&
      Date.now() - Date.parse(cur.heartbeatAt) < EXPORT_STALE_MS;
    if (cur.status === 'done' || cur.status === 'failed' || live) throw new Superseded();
    attempt = cur.attempt + 1;
    const at = new Date().toISOString();
    return { ...cur, status: 'running', attempt, heartbeatAt: at, updatedAt: at, rows: 0, parts: [] };
  }).catch((err: unknown) => {
    if (err instanceof Superseded) return null;
    throw err;
  });
  if (!claimed) return loadJob(id);

  const progress = async (patch: Partial<StoredExportJob>) => {
    const next = await update<StoredExportJob>(jobs(), jobKey(id), (cur) => {
      if (cur.attempt !== attempt) throw new Superseded();
      return { ...cur, ...patch, heartbeatAt: new Date().toISOString(), updatedAt: new Date().toISOString() };
    });
    if (!next) throw new Superseded();
  };

  const parts: StoredExportJob['parts'] = [];
  try {
    const source =
      opened ?? (await exportKind(claimed.source).open(claimed.params, new Date(claimed.createdAt)));
    let rows = 0;
    let lastBeat = Date.now();
    // One whole CSV per list when the export has several (every Inbox list); each named for its list.
    for (const file of source.files ?? [source]) {
      const filename = source.files ? file.filename : undefined;
      const header = BOM + csvHeader(file).map(csvCell).join(',') + '\r\n';
      let part = new PartWriter();
      const store = async (writer: PartWriter) => {
        const body = await writer.end();
        const k = key('file', id, `${attempt}-${parts.length + 1}`);
        if (!(await jobs().putBytes(k, toArrayBuffer(body), { type: 'text/csv' })))
          throw new Error(`export file ${k} exists`);
        parts.push({
          key: k,
          bytes: body.length,
          csvBytes: writer.csvBytes,
          rows: writer.rows,
          ...(filename ? { filename } : {}),
        });
      };
      let first = true;
      for await (const line of csvLines(file)) {
        if (first) {
          // csvLines starts with the header; each file gets its own (see PartWriter below).
          first = false;
          await part.write(header);
          continue;
        }
        if (part.gzBytes >= LIMITS.partMaxGz) {
          await store(part);
          part = new PartWriter();
          await part.write(header);
        }
        await part.write(line);
        part.rows += 1;
        rows += 1;
        if (Date.now() - lastBeat > 2000) {
          lastBeat = Date.now();
          await progress({ rows });
        }
      }
      await store(part);
    }
    await progress({ rows, parts, status: 'done', total: rows });
  } catch (err) {
    if (err instanceof Superseded) return loadJob(id);
    console.error(`[exports] ${id} failed`, err);
    await deleteFiles(parts.map((p) => p.key));
    await progress({ status: 'failed', error: 'The export failed. Please try again.', parts: [] }).catch(
      () => undefined,
    );
  }
  return loadJob(id);
}

async function deleteFiles(keys: readonly string[]): Promise<void> {
  await Promise.all(
    keys.map((k) =>
      jobs()
        .delete(k)
        .catch(() => undefined),
    ),
  );
}

// ---------------------------------------------------------------------------
// Status and download

async function loadJob(id: string): Promise<StoredExportJob> {
  if (!/^[a-f0-9]{32}$/.test(id)) throw new HttpError(404, 'Not found');
  const found = await jobs().get<unknown>(jobKey(id));
  const parsed = found ? StoredExportJobSchema.safeParse(found.value) : null;
  if (!parsed?.success) throw new HttpError(404, 'Not found');
  return parsed.data;
}

/** A member's own job (another member's is "not found"), whose export they may still make. */
export async function ownJob(user: StoredUser, id: string): Promise<StoredExportJob> {
  const job = await loadJob(id);
  if (job.ownerId !== user.id) throw new HttpError(404, 'Not found');
  if (!userMay(user, exportKind(job.source).permission))
    throw new HttpError(403, "You don't have permission to do that");
  return job;
}

function signature(job: StoredExportJob, part: number, expires: number): string {
  return createHmac('sha256', derivedKey('campaign export links v1'))
    .update(`${job.id}.${job.attempt}.${part}.${expires}.${job.ownerId}`)
    .digest('base64url');
}

/** A file's name: its list's (an export of several lists), else the job's, numbered when there are several. */
function partName(job: StoredExportJob, n: number): string {
  const own = job.parts[n - 1]?.filename;
  const named = own ? job.parts.filter((p) => p.filename === own) : job.parts;
  const base = own ?? job.filename;
  if (named.length === 1) return base;
  const i = named.indexOf(job.parts[n - 1]!) + 1;
  return base.replace(/\.csv$/, `-part-${i}-of-${named.length}.csv`);
}

/** What the dashboard is told: progress, and when done a signed link per file. */
export function viewOf(job: StoredExportJob, now = new Date()): ExportJobView {
  const stale =
    (job.status === 'running' || job.status === 'queued') &&
    Date.parse(job.heartbeatAt ?? job.createdAt) < now.getTime() - EXPORT_STALE_MS;
  const expires = Math.min(now.getTime() + LINK_TTL_MS, Date.parse(job.createdAt) + FILE_TTL_MS);
  const done = job.status === 'done' && expires > now.getTime();
  return {
    id: job.id,
    status: stale ? 'failed' : job.status,
    filename: job.filename,
    rows: job.rows,
    total: job.total,
    createdAt: job.createdAt,
    error: stale ? 'The export stopped before it finished. Please try again.' : job.error,
    downloads: done
      ? job.parts.map((p, i) => ({
          url: `/api/admin/exports/${job.id}/download?part=${i + 1}&expires=${expires}&sig=${signature(job, i + 1, expires)}`,
          filename: partName(job, i + 1),
          rows: p.rows,
          bytes: p.csvBytes,
        }))
      : [],
    linksExpireAt: done ? new Date(expires).toISOString() : null,
  };
}

/**
 * A finished export's file, for its owner, by a link that is signed and not expired: the
 * stored gzip as it is (Content-Encoding: gzip, which every browser decodes), or
 * decompressed on the way for a client that does not take gzip.
 */
export async function exportDownload(
  user: StoredUser,
  id: string,
  query: URLSearchParams,
  acceptsGzip: boolean,
  now = new Date(),
): Promise<Response> {
  const job = await ownJob(user, id);
  const part = Number(query.get('part'));
  const expires = Number(query.get('expires'));
  const sig = query.get('sig') ?? '';
  const expected = Number.isSafeInteger(part) && part >= 1 ? signature(job, part, expires) : '';
  const ok =
    expected !== '' &&
    sig.length === expected.length &&
    timingSafeEqual(Buffer.from(sig), Buffer.from(expected)) &&
    Number.isFinite(expires) &&
    expires > now.getTime();
  if (!ok) throw new HttpError(403, 'This download link has expired. Open the export again for a new one.');
  const stored = job.status === 'done' ? job.parts[part - 1] : undefined;
  const blob = stored ? await jobs().getBytes(stored.key) : null;
  if (!stored || !blob) throw new HttpError(404, 'This export is no longer kept. Please export again.');
  const bytes = new Uint8Array(blob.data);
  const headers: Record<string, string> = {
    'Content-Disposition': `attachment; filename="${partName(job, part).replace(/[^A-Za-z0-9._-]/g, '-')}"`,
  };
  if (acceptsGzip) headers['Content-Encoding'] = 'gzip';
  // Streamed (a buffered function response stops at 6 MB, a streamed one at 20 MB; each file is under partMaxGz).
  const body = acceptsGzip ? streamOf(bytes) : streamOf(bytes).pipeThrough(gunzipStream());
  return respond(body, { type: 'text/csv; charset=utf-8', headers });
}

function streamOf(bytes: Uint8Array): ReadableStream<Uint8Array> {
  let offset = 0;
  return new ReadableStream({
    pull(controller) {
      if (offset >= bytes.length) return controller.close();
      controller.enqueue(bytes.subarray(offset, offset + 1024 * 1024));
      offset += 1024 * 1024;
    },
  });
}

function gunzipStream(): TransformStream<Uint8Array, Uint8Array> {
  const gunzip = createGunzip();
  const { readable, writable } = new TransformStream<Uint8Array, Uint8Array>();
  const writer = writable.getWriter();
  gunzip.on('data', (b: Buffer) => void writer.write(new Uint8Array(b)));
  gunzip.on('end', () => void writer.close());
  gunzip.on('error', (e) => void writer.abort(e));
  return {
    readable,
    writable: new WritableStream<Uint8Array>({
      write: (chunk) => void gunzip.write(chunk),
      close: () => void gunzip.end(),
    }),
  };
}

// ---------------------------------------------------------------------------
// Clean-up

/** Deletes jobs and files older than FILE_TTL_MS (export-cleanup, hourly). Returns how many jobs went. */
export async function cleanExports(now = new Date()): Promise<number> {
  const store = jobs();
  let removed = 0;
  for await (const page of store.keys('job/')) {
    for (const k of page) {
      const got = await store.get<{ createdAt?: unknown; id?: unknown }>(k);
      const created = typeof got?.value.createdAt === 'string' ? Date.parse(got.value.createdAt) : Number.NaN;
      if (got && Number.isFinite(created) && now.getTime() - created < FILE_TTL_MS) continue;
      const id = k.slice('job/'.length);
      const files: string[] = [];
      if (/^[a-f0-9]{32}$/.test(id)) for await (const fp of store.keys(`file/${id}/`)) files.push(...fp);
      await deleteFiles(files);
      await store.delete(k);
      removed += 1;
    }
  }
  return removed;
}
