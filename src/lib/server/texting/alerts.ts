import { StaffAlertSchema, type StaffAlert } from '../../schemas/alerts.ts';
import { key } from '../storage/keys.ts';
import { kv } from '../storage/stores.ts';

/**
 * Staff alerts: one record per kind and UTC day (`meta` store,
 * `alert/<kind>/<day>`, created with onlyIfNew), so the log line and the
 * dashboard banner appear once however many requests hit the same condition.
 */

const utcDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** Records an alert for today (once) and logs it as an error the first time. */
export async function raiseAlert(kind: string, now: number, message: string): Promise<void> {
  const alert: StaffAlert = { kind, day: utcDay(now), at: new Date(now).toISOString(), message };
  try {
    if (await kv('meta').create(key('alert', kind, alert.day), alert)) {
      console.error(`[ALERT] ${kind}: ${message}`);
    }
  } catch (err) {
    // The alert must not turn a refusal into a 503; the log still says it.
    console.error(`[ALERT] ${kind}: ${message} (could not store the alert)`, err);
  }
}

/** Today's alerts (UTC), newest first. */
export async function todaysAlerts(now = Date.now()): Promise<StaffAlert[]> {
  const today = utcDay(now);
  const out: StaffAlert[] = [];
  for await (const page of kv('meta').keys('alert/')) {
    for (const k of page.filter((x) => x.endsWith(`/${today}`))) {
      const r = await kv('meta').get<unknown>(k);
      const parsed = StaffAlertSchema.safeParse(r?.value);
      if (parsed.success) out.push(parsed.data);
    }
  }
  return out.sort((a, b) => b.at.localeCompare(a.at));
}
