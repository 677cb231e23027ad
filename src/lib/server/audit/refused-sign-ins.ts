import { createHmac } from 'node:crypto';
import { derivedKey } from '../derived-keys.ts';
import { clientNetwork } from '../auth/client-network.ts';
import { LIMITS } from '../auth/rate-limit.ts';
import { findUserByLogin } from '../auth/users.ts';
import { upsert } from '../storage/compare-and-set.ts';
import { hashed, key } from '../storage/keys.ts';
import { kv } from '../storage/stores.ts';
import { listKeys } from '../storage/listing.ts';
import { appendAudit } from './audit.ts';

/**
 * Refused sign-ins are aggregated, never recorded one entry each with the
 * text the attacker typed (docs/decisions/154-audit-trail.md): one
 * counter per source network per window (clientNetwork: the IPv4 address or the IPv6 /64, like the
 * per-IP login limit, whose window it uses; docs/decisions/159-public-forms.md), written
 * to the trail as ONE `auth.sign_in_failed` entry with the count once the
 * window has closed. The next refused sign-in from anywhere, and every read of
 * Activity, writes the closed windows.
 *
 * Names are kept only in a short, sanitised form: an existing account's
 * username, or "unknown name" with a keyed 8-hex digest (so repeats of one
 * name group together while a password typed into the username box cannot be
 * read back). At most NAMES_KEPT distinct names per window.
 */

const WINDOW_MS = LIMITS.loginIp.windowSeconds * 1000;
const NAMES_KEPT = 5;
/** The longest name kept (usernames are shorter; longer text is never stored). */
export const MAX_NAME_CHARS = 32;
/** A claimed window whose writer died is claimed again after this long. */
const CLAIM_MS = 60_000;
/**
 * Closed windows written per call: a spray from many addresses must not turn one request into
 * hundreds of appends (the function time limit); later calls write the rest.
 */
const FLUSH_BATCH = 20;

interface Aggregate {
  ip: string;
  windowStart: number;
  count: number;
  wrongCredentials: number;
  rateLimited: number;
  names: string[];
  otherNames: number;
  claimedAt?: number;
}

const store = () => kv('audit');
const aggregateKey = (windowStart: number, ip: string) => key('refused', String(windowStart), hashed(ip));
const AGGREGATE_KEY = /^refused\/(\d+)\//;

/** The short form of a typed name that may be stored: a real account's username, else a keyed digest. */
export async function sanitisedName(typed: string): Promise<string> {
  const user = await findUserByLogin(typed).catch(() => null);
  if (user) return user.username.replace(/[^a-z0-9._-]/gi, '').slice(0, MAX_NAME_CHARS);
  const digest = createHmac('sha256', derivedKey('campaign refused sign-in names v1'))
    .update(typed.trim().toLowerCase())
    .digest('hex')
    .slice(0, 8);
  return `unknown name ${digest}`;
}

/** Counts one refused sign-in (401 wrong credentials, 429 limited) from `ip`, then writes closed windows. */
export async function recordRefusedSignIn(
  ip: string,
  typed: string,
  status: 401 | 429,
  now = new Date(),
): Promise<void> {
  const windowStart = Math.floor(now.getTime() / WINDOW_MS) * WINDOW_MS;
  const name = await sanitisedName(typed);
  const source = clientNetwork(ip);
  await upsert<Aggregate>(store(), aggregateKey(windowStart, source), (cur) => {
    const a: Aggregate = cur ?? {
      ip: source,
      windowStart,
      count: 0,
      wrongCredentials: 0,
      rateLimited: 0,
      names: [],
      otherNames: 0,
    };
    const known = a.names.includes(name);
    const room = a.names.length < NAMES_KEPT;
    return {
      ...a,
      count: a.count + 1,
      wrongCredentials: a.wrongCredentials + (status === 401 ? 1 : 0),
      rateLimited: a.rateLimited + (status === 429 ? 1 : 0),
      names: known || !room ? a.names : [...a.names, name],
      // Counted per attempt, not per distinct name: a bound, not a tally of names.
      otherNames: a.otherNames + (known || room ? 0 : 1),
    };
  });
  await flushRefusedSignIns(now);
}

/**
 * Writes one audit entry for every closed window, exactly once in the usual
 * case: a window is claimed with a compare-and-set write before its entry is
 * appended and deleted after; at most `max` windows a call, oldest first.
 * Returns how many entries were written.
 */
export async function flushRefusedSignIns(now = new Date(), max = FLUSH_BATCH): Promise<number> {
  const s = store();
  const at = now.getTime();
  let written = 0;
  for (const k of await listKeys(s, 'refused/')) {
    if (written >= max) break;
    const m = AGGREGATE_KEY.exec(k);
    if (!m || Number(m[1]) + WINDOW_MS > at) continue;
    const cur = await s.get<Aggregate>(k);
    if (!cur || (cur.value.claimedAt !== undefined && at - cur.value.claimedAt < CLAIM_MS)) continue;
    if (!(await s.replace(k, { ...cur.value, claimedAt: at }, cur.etag))) continue;
    const a = cur.value;
    const names = a.names.join(', ') + (a.otherNames ? ` and ${a.otherNames} more` : '');
    await appendAudit(
      {
        kind: 'auth.sign_in_failed',
        actor: null,
        actorName: a.names.length === 1 && !a.otherNames ? a.names[0]! : '',
        details: {
          attempts: String(a.count),
          wrongCredentials: String(a.wrongCredentials),
          rateLimited: String(a.rateLimited),
          names,
          window: `${new Date(a.windowStart).toISOString()} to ${new Date(a.windowStart + WINDOW_MS).toISOString()}`,
        },
        ip: a.ip,
      },
      now,
    );
    await s.delete(k);
    written += 1;
  }
  return written;
}
