import type { Config } from '@netlify/functions';
import { BULK_STEP, checkUntil } from '../../src/lib/server/audit/checkpoint.ts';
import { runFullVerification, verificationStatus } from '../../src/lib/server/audit/verification.ts';
import { handle, json } from '../../src/lib/server/http.ts';

/** A scheduled function runs 30 seconds at most. */
const CHECK_MS = 10_000;
const FULL_MS = 12_000;
const DAY_MS = 86_400_000;

/**
 * Scheduled (every 5 minutes; docs/decisions/154-audit-trail.md, 108-audit-full-verification-job.md): moves the audit trail's checkpoint
 * over the entries written since (verifying them and adding them to Activity's filter lists), so the
 * part of the trail Activity lists from index keys stays short. Then gives the full verification a
 * slice of time: one whose run died is taken over, and a new one starts when the last finished more
 * than a day ago, so a change to an old entry is found within a day even if no one asks.
 */
export default handle(async () => {
  const step = await checkUntil(BULK_STEP, CHECK_MS);
  const last = await verificationStatus();
  const due =
    last.state === 'none' || (last.state === 'done' && Date.now() - Date.parse(last.finishedAt!) > DAY_MS);
  const full = await runFullVerification({ by: 'schedule', start: due, budgetMs: FULL_MS });
  console.info(`[audit-checkpoint] ${JSON.stringify({ step, full: full.state })}`);
  return json({ step, full });
});

export const config: Config = { schedule: '*/5 * * * *' };
