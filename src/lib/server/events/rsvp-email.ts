import { IDENTITY } from '../../../content/identity.ts';
import { formatEventDate, formatTime } from '../../campaign-time.ts';
import { buildCalendar, icsFileName } from '../../ics.ts';
import type { CampaignEvent } from '../../schemas/event.ts';
import type { StoredRsvp } from '../../schemas/rsvp.ts';
import { eventPagePath } from '../../schemas/rsvp-rules.ts';
import type { EmailMessage } from '../adapters/email.ts';
import { env } from '../env.ts';

/** The emails of the RSVP flow (pure: built from the records; sent by rsvp.ts and reminders.ts). */

/** The cancellation link of the emails; built from SITE_URL, never the Host header. */
export function cancelUrl(eventId: number, rsvpId: string, token: string): string {
  const u = new URL('/rsvp/cancel', env().SITE_URL);
  u.searchParams.set('event', String(eventId));
  u.searchParams.set('rsvp', rsvpId);
  u.searchParams.set('token', token);
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
  token: string,
  position: number | null,
): EmailMessage {
  const going = status === 'going';
  return {
    to: r.email,
    replyTo: e.contactEmail,
    subject: oneLine(going ? `You're going: ${e.title}` : `You're on the waitlist: ${e.title}`),
    text: [
      `Hi ${r.name},`,
      '',
      going
        ? "Thanks for your RSVP. You're on the list; the calendar invitation is attached."
        : `This event is full, so you're on the waitlist${position ? ` (number ${position})` : ''}. ` +
          "If a seat opens up we'll email you right away.",
      '',
      ...details(e, r),
      '',
      `Can't make it? Cancel your RSVP so someone else can have the seat: ${cancelUrl(e.id, r.id, token)}`,
      '',
      `${IDENTITY.committeeName}`,
    ].join('\n'),
    ...(going ? { attachments: [icsAttachment(e)] } : {}),
  };
}

export function promotionEmail(e: CampaignEvent, r: StoredRsvp, token: string): EmailMessage {
  return {
    to: r.email,
    replyTo: e.contactEmail,
    subject: oneLine(`A seat opened up: you're going to ${e.title}`),
    text: [
      `Hi ${r.name},`,
      '',
      "Good news: a seat opened up and you're now on the list. The calendar invitation is attached.",
      '',
      ...details(e, r),
      '',
      `Can't make it after all? Cancel here: ${cancelUrl(e.id, r.id, token)}`,
      '',
      `${IDENTITY.committeeName}`,
    ].join('\n'),
    attachments: [icsAttachment(e)],
  };
}

export function reminderEmail(e: CampaignEvent, r: StoredRsvp): EmailMessage {
  return {
    to: r.email,
    replyTo: e.contactEmail,
    subject: oneLine(`Tomorrow: ${e.title}`),
    text: [
      `Hi ${r.name},`,
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
