import { randomBytes } from 'node:crypto';
import { key } from '../keys.ts';
import type { StoreName } from '../kv.ts';
import { kv } from '../stores.ts';

/**
 * The write half of a summary index (docs/decisions/155-inbox-and-staff-lists.md): each
 * change of a record adds one small segment, `summary/seg/<iso time>-<random>`,
 * created with onlyIfNew. Nothing is read and no shared document is rewritten,
 * so a rush of sign-ups never fights over one blob; readers merge the outstanding
 * segments with the compacted base and the scheduled compaction folds them in.
 * Kept apart from the reader (view.ts and the modules it uses) so the public form functions load
 * no compression code.
 */

export const SUMMARY_PREFIX = 'summary/';
export const SEGMENT_PREFIX = `${SUMMARY_PREFIX}seg/`;

/** What a segment holds: the index format it was written for and one summary. */
export interface Segment<S> {
  version: number;
  s: S;
}

/**
 * Appends a record's new summary. The record is written first (it is the source of
 * truth): a failure here leaves the index one record behind until the next rebuild,
 * so it is logged and never undoes the record.
 */
export async function appendSummary<S>(
  store: StoreName,
  version: number,
  summary: S,
  now = new Date(),
): Promise<void> {
  try {
    for (let i = 0; i < 3; i++) {
      const k = key('summary', 'seg', `${now.toISOString()}-${randomBytes(6).toString('hex')}`);
      if (await kv(store).create(k, { version, s: summary } satisfies Segment<S>)) return;
    }
    throw new Error('no free segment key');
  } catch (err) {
    console.error(`[summaries] ${store}: could not append a summary segment`, err);
  }
}
