import { IDENTITY } from '../../../content/identity.ts';
import { formatEventDate, formatTime } from '../../campaign-time.ts';
import { buildCalendar, icsFileName } from '../../ics.ts';
import type { CampaignEvent } from '../../schemas/event.ts';
import type { StoredRsvp } from '../../schemas/rsvp.ts';
import { RSVP_MESSAGES, eventPagePath } from '../../schemas/rsvp-rules.ts';
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
 * trace of the email (docs/decisions/076-rsvp-cancel-links.md); built from
 * SITE_URL, never the Host header.
 */
export function cancelUrl(eventId: number, rsvpId: string, lang: Lang = DEFAULT_LANG): string {
  const u = new URL(localizedPath('/rsvp/cancel', lang), env().SITE_URL);
  u.searchParams.set('event', String(eventId));
  u.searchParams.set('token', cancelToken(eventId, rsvpId));
  return u.href;
}

function when(e: CampaignEvent): string {
  return `${formatEventDate(e.eventDate)}, ${formatTime(e.startTime)}${e.endTime ? ` - ${formatTime(e.endTime)}` : ''} (New Orleans time)`;
}

function details(e: CampaignEvent, r: StoredRsvp): string[] {
  return [
    `Event: ${e.title}`,
    `When: ${when(e)}`,
    `Where: ${e.location}`,
    `Party: you${r.guests ? ` and ${r.guests} guest${r.guests === 1 ? '' : 's'}` : ''}`,
    `Event page: ${new URL(eventPagePath(e.id), env().SITE_URL).href}`,
  ];
}

export function icsAttachment(e: CampaignEvent) {
  return {
    filename: icsFileName(e),
    type: 'text/calendar',
    content: buildCalendar([e], {
      name: `${IDENTITY.smsProgramName} Events`,
      uidHost: new URL(env().SITE_URL).hostname,
    }),
  };
}

const oneLine = (s: string) => s.replace(/[\r\n]+/g, ' ').slice(0, 200);

export function confirmationEmail(
  e: CampaignEvent,
  r: StoredRsvp,
  status: 'going' | 'waitlisted',
  position: number | null,
): EmailMessage {
  const going = status === 'going';
  return {
    to: r.email,
    replyTo: e.contactEmail,
    subject: oneLine(going ? `You're going: ${e.title}` : `You're on the waitlist: ${e.title}`),
    text: [
      greeting(r.name),
      '',
      going
        ? "Thanks for your RSVP. You're on the list; the calendar invitation is attached."
        : `This event is full, so you're on the waitlist${position ? ` (number ${position})` : ''}. ` +
          "If a seat opens up we'll email you right away.",
      '',
      ...details(e, r),
      '',
      `Can't make it? Cancel your RSVP so someone else can have the seat: ${cancelUrl(e.id, r.id, r.lang)}`,
      '',
      `${IDENTITY.committeeName}`,
    ].join('\n'),
    ...(going ? { attachments: [icsAttachment(e)] } : {}),
  };
}

export function promotionEmail(e: CampaignEvent, r: StoredRsvp): EmailMessage {
  return {
    to: r.email,
    replyTo: e.contactEmail,
    subject: oneLine(`A seat opened up: you're going to ${e.title}`),
    text: [
      greeting(r.name),
      '',
      "Good news: a seat opened up and you're now on the list. The calendar invitation is attached.",
      '',
      ...details(e, r),
      '',
      `Can't make it after all? Cancel here: ${cancelUrl(e.id, r.id, r.lang)}`,
      '',
      `${IDENTITY.committeeName}`,
    ].join('\n'),
    attachments: [icsAttachment(e)],
  };
}

/**
 * The answer to a repeat RSVP, sent to the address on the list instead of
 * being shown to whoever submitted the form (docs/decisions/077-repeat-rsvp.md).
 */
export function statusEmail(
  e: CampaignEvent,
  r: StoredRsvp,
  status: 'going' | 'waitlisted',
  position: number | null,
): EmailMessage {
  const going = status === 'going';
  return {
    to: r.email,
    replyTo: e.contactEmail,
    subject: oneLine(`Your RSVP: ${e.title}`),
    text: [
      greeting(r.name),
      '',
      'We got another RSVP for this event with this email address, so nothing has changed.',
      going
        ? RSVP_MESSAGES.alreadyGoing
        : `${RSVP_MESSAGES.alreadyWaitlisted}${position ? ` Your place: number ${position}.` : ''} ` +
          "If a seat opens up we'll email you right away.",
      '',
      ...details(e, r),
      '',
      `Can't make it? Cancel your RSVP so someone else can have the seat: ${cancelUrl(e.id, r.id, r.lang)}`,
      '',
      "If you didn't send that RSVP, you can ignore this email.",
      '',
      `${IDENTITY.committeeName}`,
    ].join('\n'),
  };
}

export function reminderEmail(e: CampaignEvent, r: StoredRsvp): EmailMessage {
  return {
    to: r.email,
    replyTo: e.contactEmail,
    subject: oneLine(`Tomorrow: ${e.title}`),
    text: [
      greeting(r.name),
      '',
      'A reminder that you are coming tomorrow:',
      '',
      ...details(e, r),
      '',
      'Plans changed? Please cancel with the link in your confirmation email so someone on the waitlist can come.',
      '',
      `${IDENTITY.committeeName}`,
    ].join('\n'),
  };
}

/** The reminder text: program name, the event, and how to stop (SECURITY.md "SMS"). */
export function reminderText(e: CampaignEvent): string {
  return (
    `${IDENTITY.smsProgramName}: Reminder: ${e.title} is tomorrow, ${formatTime(e.startTime)} at ${e.location}. ` +
    'Reply STOP to opt out.'
  ).slice(0, 320);
}
