import { IDENTITY } from '../../../content/identity.ts';
import { formatEventDate, formatTime } from '../../campaign-time.ts';
import { buildCalendar, icsFileName } from '../../ics.ts';
import type { CampaignEvent } from '../../schemas/event.ts';
import type { StoredRsvp } from '../../schemas/rsvp.ts';
import { eventPagePath } from '../../schemas/rsvp-rules.ts';
import { toPublicEvent } from '../../schemas/public-projections.ts';
import { fill } from '../../fill.ts';
import { compliantText } from '../../text-compliance.ts';
import { RSVP_EMAIL_COPY, type RsvpEmailCopy } from '../../../content/rsvp-emails.ts';
import { DEFAULT_LANG, type Lang } from '../../lang.ts';
import { localizedPath } from '../../lang-paths.ts';
import type { EmailMessage } from '../adapters/email.ts';
import { greeting } from '../../merge-fields.ts';
import { env } from '../env.ts';
import { cancelToken } from './cancel-link.ts';

/**
 * The emails of the RSVP flow (built from the records; sent by rsvp.ts and
 * reminders.ts). They go to an address a visitor typed, so nothing else the
 * visitor typed is echoed: the greeting uses the name only when it is a name
 * (src/lib/merge-fields.ts; docs/decisions/075-names-are-not-a-channel.md).
 */

/** The cancellation page of a language (English at the root, like every page). */
export const cancelPagePath = (lang: Lang) =>
  lang === DEFAULT_LANG ? '/rsvp/cancel' : `/${lang}/rsvp/cancel`;

/**
 * The cancellation link of the emails: the event and the keyed token, no
 * trace of the email (docs/decisions/150-rsvp.md); built from
 * SITE_URL, never the Host header.
 */
export function cancelUrl(eventId: number, rsvpId: string, lang: Lang = DEFAULT_LANG): string {
  const u = new URL(localizedPath('/rsvp/cancel', lang), env().SITE_URL);
  u.searchParams.set('event', String(eventId));
  u.searchParams.set('token', cancelToken(eventId, rsvpId));
  return u.href;
}

/** The event as the recipient reads it: its title in their language when it has a translation. */
function eventFor(e: CampaignEvent, lang: Lang): CampaignEvent {
  return { ...e, title: toPublicEvent(e, lang).title };
}

function when(e: CampaignEvent, w: RsvpEmailCopy): string {
  const end = e.endTime ? ` - ${formatTime(e.endTime, w.locale)}` : '';
  return `${formatEventDate(e.eventDate, w.locale)}, ${formatTime(e.startTime, w.locale)}${end} ${w.zoneNote}`;
}

function details(e: CampaignEvent, r: StoredRsvp, w: RsvpEmailCopy, lang: Lang): string[] {
  const guests = r.guests ? fill(r.guests === 1 ? w.guestOne : w.guestMany, r.guests) : '';
  return [
    fill(w.event, e.title),
    fill(w.when, when(e, w)),
    fill(w.where, e.location),
    fill(w.party, guests),
    fill(w.eventPage, new URL(localizedPath(eventPagePath(e.id), lang), env().SITE_URL).href),
  ];
}

export function icsAttachment(e: CampaignEvent, lang: Lang = DEFAULT_LANG) {
  return {
    filename: icsFileName(e),
    type: 'text/calendar',
    content: buildCalendar([eventFor(e, lang)], {
      name: `${IDENTITY.smsProgramName} ${RSVP_EMAIL_COPY[lang].calendarName}`,
      uidHost: new URL(env().SITE_URL).hostname,
    }),
  };
}

const oneLine = (s: string) => s.replace(/[\r\n]+/g, ' ').slice(0, 200);

/** The language an RSVP's emails are written in: the page's it came from. */
const langOf = (r: StoredRsvp): Lang => r.lang ?? DEFAULT_LANG;

/** What one RSVP email says in the recipient's language: its subject, the lines above and below the details. */
interface RsvpEmailParts {
  subject: string;
  /** What happened (above the event's details). */
  lead: string[];
  /** What the recipient can do (below the details). */
  after: string[];
  /** The event's .ics (for a place held). */
  ics?: boolean;
}

/**
 * An RSVP email as every one of them is laid out: the greeting, what happened, the event's details, what to do,
 * the committee; in the RSVP's language, with the event's title in it, replies to the event's contact.
 */
function rsvpEmail(
  event: CampaignEvent,
  r: StoredRsvp,
  parts: (w: RsvpEmailCopy, e: CampaignEvent, lang: Lang) => RsvpEmailParts,
): EmailMessage {
  const lang = langOf(r);
  const w = RSVP_EMAIL_COPY[lang];
  const e = eventFor(event, lang);
  const { subject, lead, after, ics } = parts(w, e, lang);
  return {
    to: r.email,
    replyTo: e.contactEmail,
    subject: oneLine(subject),
    text: [
      greeting(r.name, lang),
      '',
      ...lead,
      '',
      ...details(e, r, w, lang),
      '',
      ...after,
      '',
      `${IDENTITY.committeeName}`,
    ].join('\n'),
    ...(ics ? { attachments: [icsAttachment(event, lang)] } : {}),
  };
}

export function confirmationEmail(
  event: CampaignEvent,
  r: StoredRsvp,
  status: 'going' | 'waitlisted',
  position: number | null,
): EmailMessage {
  const going = status === 'going';
  return rsvpEmail(event, r, (w, e, lang) => ({
    subject: fill(going ? w.subjectGoing : w.subjectWaitlisted, e.title),
    lead: [going ? w.going : fill(w.waitlisted, position ? fill(w.waitlistNumber, position) : '')],
    after: [fill(w.cancel, cancelUrl(e.id, r.id, lang))],
    ics: going,
  }));
}

export function promotionEmail(event: CampaignEvent, r: StoredRsvp): EmailMessage {
  return rsvpEmail(event, r, (w, e, lang) => ({
    subject: fill(w.subjectPromoted, e.title),
    lead: [w.promoted],
    after: [fill(w.cancelAfterAll, cancelUrl(e.id, r.id, lang))],
    ics: true,
  }));
}

/**
 * The answer to a repeat RSVP, sent to the address on the list instead of
 * being shown to whoever submitted the form (docs/decisions/150-rsvp.md).
 */
export function statusEmail(
  event: CampaignEvent,
  r: StoredRsvp,
  status: 'going' | 'waitlisted',
  position: number | null,
): EmailMessage {
  const going = status === 'going';
  return rsvpEmail(event, r, (w, e, lang) => ({
    subject: fill(w.subjectStatus, e.title),
    lead: [
      w.repeat,
      going
        ? w.alreadyGoing
        : `${w.alreadyWaitlisted}${position ? fill(w.yourPlace, position) : ''} ${w.seatNotice}`,
    ],
    after: [fill(w.cancel, cancelUrl(e.id, r.id, lang)), '', w.notYou],
  }));
}

export function reminderEmail(event: CampaignEvent, r: StoredRsvp): EmailMessage {
  return rsvpEmail(event, r, (w, e) => ({
    subject: fill(w.subjectReminder, e.title),
    lead: [w.reminder],
    after: [w.plansChanged],
  }));
}

/**
 * The reminder text in the RSVP's language: program name, the event, and how to stop (SECURITY.md "SMS"),
 * the last two added by the compliance rule every text shares.
 */
export function reminderText(event: CampaignEvent, lang: Lang = DEFAULT_LANG): string {
  const w = RSVP_EMAIL_COPY[lang];
  const e = eventFor(event, lang);
  // The event's words are cut, never the program name or the opt-out line the rule adds.
  const body = fill(w.reminderText, e.title, formatTime(e.startTime, w.locale), e.location).slice(0, 260);
  return compliantText(body, lang);
}
