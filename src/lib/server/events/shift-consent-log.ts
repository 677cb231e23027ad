import { createHash } from 'node:crypto';
import { IDENTITY } from '../../../content/identity.ts';
import { localizedPath } from '../../lang-paths.ts';
import { eventPagePath } from '../../schemas/rsvp-rules.ts';
import { rsvpSmsConsentText, rsvpSmsConsentVersion } from '../../schemas/rsvp.ts';
import { appendConsentEvent, emptyEvent, type RequestMeta } from '../texting/text-signups.ts';
import { hashed } from '../storage/keys.ts';

/**
 * The text consent of a shifts' sign-up (the RSVP form's reminder box, docs/decisions/181-shifts.md, "The
 * sequence"), in the same append-only log as the RSVP's (`rsvp_reminder_opt_in`, its wording and version), with
 * the person's shift record (`refKey`) as its reference. A failure to log is reported, never a refused sign-up.
 */
export async function logShiftTextConsent(
  rec: {
    id: string;
    eventId: number;
    name: string;
    email: string;
    phone: string | null;
    smsReminder: boolean;
    lang: 'en' | 'es';
  },
  meta: RequestMeta,
  at: string,
  refKey: string,
): Promise<void> {
  if (!rec.smsReminder || !rec.phone) return;
  const text = rsvpSmsConsentText(IDENTITY.committeeName, rec.lang);
  await appendConsentEvent({
    ...emptyEvent(hashed(rec.phone), 'rsvp_reminder_opt_in', at),
    phone: rec.phone,
    email: rec.email,
    firstName: rec.name.slice(0, 80),
    consentText: text,
    consentVersion: rsvpSmsConsentVersion(IDENTITY.committeeName, rec.lang),
    consentTextSha256: createHash('sha256').update(text).digest('hex'),
    lang: rec.lang,
    sourcePage: localizedPath(eventPagePath(rec.eventId), rec.lang),
    ip: meta.ip,
    userAgent: meta.userAgent ? meta.userAgent.slice(0, 512) : null,
    refKey,
  }).catch((e: unknown) => console.error('[shifts] could not log the text consent', e));
}
