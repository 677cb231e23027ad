import { createHmac } from 'node:crypto';
import type { AuditEntry } from '../../schemas/audit.ts';
import { derivedKey } from '../derived-keys.ts';
import { key } from '../storage/keys.ts';
import type { KV } from '../storage/kv.ts';
import { kv } from '../storage/stores.ts';

/**
 * The audit trail's keys, hashes and signatures (store `audit`), shared by the
 * writer (audit.ts), Activity (activity.ts), the checkpoint (checkpoint.ts)
 * and the full verification (verification.ts). Design:
 * docs/decisions/154-audit-trail.md and
 * docs/decisions/154-audit-trail.md.
 *
 * - `chain/<seq>`: every entry in order, created with onlyIfNew: the one copy
 *   of an entry.
 * - `log/<inverted time>+<inverted seq>+<kind>+<actor id>`: an index key whose
 *   value is only `{seq}`; key order is newest first. Activity finds the entries
 *   written since the last checkpoint from these names.
 * - `head` and `anchor/<YYYY-MM-DD>`: the signed head and day anchors.
 * - `checkpoint` and `postings/...`: what the incremental check has verified,
 *   and the per-filter lists built from those verified entries (checkpoint.ts,
 *   postings.ts).
 */

export const auditStore = (): KV => kv('audit');
export const GENESIS = '0'.repeat(64);
export const DAY_MS = 86_400_000;

/** Times and sequence numbers are inverted so that key order is newest first. */
const TIME_DIGITS = 13;
const SEQ_DIGITS = 10;
export const MAX_TIME = 10 ** TIME_DIGITS - 1;
const MAX_SEQ = 10 ** SEQ_DIGITS - 1;
export const invTime = (ms: number) => String(MAX_TIME - ms).padStart(TIME_DIGITS, '0');
const invSeq = (seq: number) => String(MAX_SEQ - seq).padStart(SEQ_DIGITS, '0');
export const chainKey = (seq: number) => key('chain', String(seq).padStart(SEQ_DIGITS, '0'));
export const logKey = (e: Pick<AuditEntry, 'at' | 'seq' | 'kind' | 'actorId'>) =>
  key('log', `${invTime(Date.parse(e.at))}+${invSeq(e.seq)}+${e.kind}+${e.actorId ?? 0}`);
const LOG_KEY = /^log\/(\d{13})\+(\d{10})\+([a-z_.]+)\+(\d+)$/;
export const anchorKey = (day: string) => key('anchor', day);
export const dayOf = (at: string) => at.slice(0, 10);

/** What Activity needs of a recent entry to filter it: `[seq, time ms, kind, person id (0: nobody)]`. */
export type Recent = [seq: number, atMs: number, kind: string, actorId: number];

/** How many of the newest entries the head lists (docs/decisions/154-audit-trail.md). */
export const RECENT = 64;

/** The signed head: the last entry's position and hash. */
export interface Head {
  seq: number;
  hash: string;
  /** The first position written with day anchors (older stores had none). */
  anchoredFrom?: number;
  /** HMAC over the fields above (absent on a head written before anchors). */
  mac?: string;
  /**
   * The newest entries (up to RECENT, by position), so a page can filter the entries newer than the
   * checkpoint without listing index keys. An index like the keys: not signed, every shown entry is checked.
   */
  recent?: Recent[];
}

export const recentOf = (e: Pick<AuditEntry, 'seq' | 'at' | 'kind' | 'actorId'>): Recent => [
  e.seq,
  Date.parse(e.at),
  e.kind,
  e.actorId ?? 0,
];

/** `list` with `more` added (by position, no repeats), keeping the RECENT newest. */
export function withRecent(list: readonly Recent[] | undefined, more: readonly Recent[]): Recent[] {
  const bySeq = new Map<number, Recent>();
  for (const r of [...(list ?? []), ...more]) bySeq.set(r[0], r);
  return [...bySeq.values()].sort((a, b) => a[0] - b[0]).slice(-RECENT);
}

/** A day's anchor: that UTC day's last entry, signed. */
export interface DayAnchor {
  day: string;
  seq: number;
  hash: string;
  mac: string;
}

/** The chain's HMAC key, derived from the session secret (never stored). */
const chainMacKey = () => derivedKey('campaign audit chain v1');

/**
 * The anchors' MAC: a separate derivation, so an entry's MAC can never pass for
 * an anchor's. The checkpoint is signed with it too, under its own first field.
 */
export function anchorMac(fields: unknown[]): string {
  return createHmac('sha256', derivedKey('campaign audit anchor v1'))
    .update(JSON.stringify(fields))
    .digest('hex');
}
export const headMac = (h: Omit<Head, 'mac'>) => anchorMac(['head', h.seq, h.hash, h.anchoredFrom ?? null]);
export const signedHead = ({ mac, ...h }: Head) => mac !== undefined && headMac(h) === mac;
export const dayMac = (a: Omit<DayAnchor, 'mac'>) => anchorMac(['day', a.day, a.seq, a.hash]);
export const validAnchor = (k: string, a: DayAnchor | undefined): a is DayAnchor =>
  !!a && k === anchorKey(a.day) && dayMac({ day: a.day, seq: a.seq, hash: a.hash }) === a.mac;

/** An entry's hash: HMAC-SHA256 over its fields and the previous entry's hash. */
export function entryHash(e: Omit<AuditEntry, 'hash'>): string {
  const details = Object.fromEntries(Object.entries(e.details).sort(([a], [b]) => a.localeCompare(b)));
  const canonical = JSON.stringify([
    e.seq,
    e.at,
    e.kind,
    e.actorId,
    e.actorName,
    e.target,
    details,
    e.ip,
    e.prevHash,
  ]);
  return createHmac('sha256', chainMacKey()).update(canonical).digest('hex');
}

/** What an index key says about its entry, from its name alone. */
export interface KeyInfo {
  key: string;
  at: number;
  seq: number;
  kind: string;
  actorId: number;
}

export function parseLogKey(k: string): KeyInfo | null {
  const m = LOG_KEY.exec(k);
  if (!m) return null;
  return {
    key: k,
    at: MAX_TIME - Number(m[1]),
    seq: MAX_SEQ - Number(m[2]),
    kind: m[3]!,
    actorId: Number(m[4]),
  };
}

/** Why an entry's own check failed, or null when it holds (its HMAC, and its index key names it truly). */
export function entryProblem(e: AuditEntry, info: KeyInfo | null): 'altered' | null {
  const { hash, ...rest } = e;
  if (entryHash(rest) !== hash) return 'altered';
  if (info && logKey(e) !== info.key) return 'altered';
  return null;
}
