import { CAPTCHA_REQUIRED, formEndpoint } from '../schemas/public-forms.ts';

/**
 * Volunteer sign-ups that could not reach the server (network failure or 503)
 * are kept in this browser and sent again on the next visit (docs/decisions/159-public-forms.md).
 * Only the volunteer's own data, on their own device, and briefly: an entry is
 * deleted from storage once it is 24 hours old (docs/decisions/163-tests.md), and as soon as it is
 * sent; an empty outbox leaves nothing behind.
 */

export const OUTBOX_KEY = 'campaign.volunteer-outbox.v1';
export const OUTBOX_MAX_AGE_MS = 24 * 60 * 60 * 1000;
const MAX_ENTRIES = 5;

export interface PendingSignup {
  id: string;
  savedAt: string;
  payload: Record<string, unknown>;
  /** Set when the server rejected the saved captcha token: the visitor must resubmit. */
  needsCaptcha?: boolean;
}

function storage(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null;
  }
}

/**
 * The pending sign-ups younger than 24 hours. Reading also deletes what is
 * older (or unreadable) from storage, so expired personal data never lingers
 * just because nothing was written since.
 */
export function readOutbox(now = Date.now()): PendingSignup[] {
  const s = storage();
  const raw = s?.getItem(OUTBOX_KEY);
  if (!s || !raw) return [];
  let list: unknown;
  try {
    list = JSON.parse(raw);
  } catch {
    list = null;
  }
  const all = Array.isArray(list) ? (list as PendingSignup[]) : [];
  const fresh = all.filter((e) => {
    const age = now - Date.parse(e?.savedAt);
    return (
      e && typeof e.id === 'string' && typeof e.payload === 'object' && age >= 0 && age < OUTBOX_MAX_AGE_MS
    );
  });
  if (fresh.length !== all.length || !Array.isArray(list)) writeOutbox(fresh);
  return fresh;
}

function writeOutbox(list: PendingSignup[]): void {
  const s = storage();
  if (!s) return;
  if (list.length === 0) s.removeItem(OUTBOX_KEY);
  else s.setItem(OUTBOX_KEY, JSON.stringify(list.slice(-MAX_ENTRIES)));
}

/** Keeps a sign-up for a later retry. Returns false when the browser cannot store it. */
export function saveForRetry(payload: Record<string, unknown>): boolean {
  const s = storage();
  if (!s) return false;
  try {
    const entry: PendingSignup = {
      id: `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`,
      savedAt: new Date().toISOString(),
      payload,
    };
    writeOutbox([...readOutbox(), entry]);
    return readOutbox().some((e) => e.id === entry.id);
  } catch {
    return false;
  }
}

export function removeFromOutbox(id: string): void {
  writeOutbox(readOutbox().filter((e) => e.id !== id));
}

export type RetryOutcome = 'sent' | 'kept' | 'needs-captcha' | 'rejected';

/** What to do with a saved sign-up given the server's answer (null: network failure). */
export function retryOutcome(status: number | null, error?: string): RetryOutcome {
  if (status === null || status === 503 || status === 429 || status >= 500) return 'kept';
  if (status >= 200 && status < 300) return 'sent';
  if (status === 400 && error === CAPTCHA_REQUIRED) return 'needs-captcha';
  return 'rejected';
}

/**
 * Sends every saved sign-up once. Sent ones are removed; ones whose captcha
 * token expired are flagged so the volunteer page can ask for a fresh captcha;
 * other rejections are flagged the same way (the form shows the server's error).
 */
export async function flushOutbox(
  send: (payload: Record<string, unknown>) => Promise<{ status: number | null; error?: string }>,
): Promise<PendingSignup[]> {
  const pending = readOutbox();
  for (const entry of pending) {
    if (entry.needsCaptcha) continue;
    const { status, error } = await send(entry.payload);
    const outcome = retryOutcome(status, error);
    if (outcome === 'sent') removeFromOutbox(entry.id);
    else if (outcome === 'needs-captcha' || outcome === 'rejected') {
      writeOutbox(readOutbox().map((e) => (e.id === entry.id ? { ...e, needsCaptcha: true } : e)));
    }
  }
  return readOutbox();
}

/** POST to the volunteer endpoint, reporting the status (null on network failure). */
export async function postVolunteer(
  payload: Record<string, unknown>,
): Promise<{ status: number | null; error?: string; fields?: Record<string, string> }> {
  try {
    const res = await fetch(formEndpoint('volunteer'), {
      method: 'POST',
      credentials: 'include',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(payload),
    });
    let body: { error?: string; fields?: Record<string, string> } = {};
    try {
      body = (await res.json()) as typeof body;
    } catch {
      /* empty or non-JSON body */
    }
    return { status: res.status, error: body.error, fields: body.fields };
  } catch {
    return { status: null };
  }
}
