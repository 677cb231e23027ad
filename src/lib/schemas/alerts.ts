import { z } from './zod.ts';

/**
 * Alerts for staff (GET /api/admin/alerts), shown as a banner on the
 * dashboard. Raised by the server when something needs a person, e.g. the
 * daily cap of texts (every kind) was reached (docs/decisions/151-texting.md).
 */
export const StaffAlertSchema = z.object({
  /** What happened, e.g. 'sms-daily-cap'. */
  kind: z.string(),
  /** The UTC day it happened (one alert per kind and day). */
  day: z.string(),
  /** When it was first raised (ISO). */
  at: z.string(),
  message: z.string(),
});
export type StaffAlert = z.infer<typeof StaffAlertSchema>;

export const AlertsResponseSchema = z.object({
  /** Today's alerts (UTC day), newest first. */
  alerts: z.array(StaffAlertSchema),
  /** Confirmation texts sent today against SMS_DAILY_CAP, and when the count starts again (ISO). */
  smsToday: z.object({ used: z.number().int(), max: z.number().int(), resetsAt: z.string() }),
});
export type AlertsResponse = z.infer<typeof AlertsResponseSchema>;
