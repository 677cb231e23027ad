import type { Lang } from '../lib/lang.ts';
import { RSVP_MESSAGES } from '../lib/schemas/rsvp-rules.ts';

/**
 * The RSVP emails and reminder text (src/lib/server/events/rsvp-email.ts) in the language of the page the RSVP came
 * from: a visitor who RSVP'd on /es/events/7 reads Spanish from the first email to the reminder, with links to the
 * Spanish pages. `{0}`-style placeholders are filled with `fill` (src/lib/fill.ts). Spanish wording for the
 * campaign to review, like the consent texts.
 */
export interface RsvpEmailCopy {
  /** The locale dates and times are written in. */
  locale: string;
  zoneNote: string;
  subjectGoing: string;
  subjectWaitlisted: string;
  subjectPromoted: string;
  subjectStatus: string;
  subjectReminder: string;
  going: string;
  /** {0}: " (number 3)" or ''. */
  waitlisted: string;
  waitlistNumber: string;
  promoted: string;
  repeat: string;
  alreadyGoing: string;
  alreadyWaitlisted: string;
  /** {0}: the place on the waitlist. */
  yourPlace: string;
  seatNotice: string;
  notYou: string;
  reminder: string;
  plansChanged: string;
  cancel: string;
  cancelAfterAll: string;
  event: string;
  when: string;
  where: string;
  /** {0}: the guests line, or ''. */
  party: string;
  /** {0}: the number of guests. */
  guestOne: string;
  guestMany: string;
  eventPage: string;
  /** {0} title, {1} time, {2} place. */
  reminderText: string;
  calendarName: string;
}

export const RSVP_EMAIL_COPY: Record<Lang, RsvpEmailCopy> = {
  en: {
    locale: 'en-US',
    zoneNote: '(New Orleans time)',
    subjectGoing: "You're going: {0}",
    subjectWaitlisted: "You're on the waitlist: {0}",
    subjectPromoted: "A seat opened up: you're going to {0}",
    subjectStatus: 'Your RSVP: {0}',
    subjectReminder: 'Tomorrow: {0}',
    going: "Thanks for your RSVP. You're on the list; the calendar invitation is attached.",
    waitlisted:
      "This event is full, so you're on the waitlist{0}. If a seat opens up we'll email you right away.",
    waitlistNumber: ' (number {0})',
    promoted: "Good news: a seat opened up and you're now on the list. The calendar invitation is attached.",
    repeat: 'We got another RSVP for this event with this email address, so nothing has changed.',
    alreadyGoing: RSVP_MESSAGES.alreadyGoing,
    alreadyWaitlisted: RSVP_MESSAGES.alreadyWaitlisted,
    yourPlace: ' Your place: number {0}.',
    seatNotice: "If a seat opens up we'll email you right away.",
    notYou: "If you didn't send that RSVP, you can ignore this email.",
    reminder: 'A reminder that you are coming tomorrow:',
    plansChanged:
      'Plans changed? Please cancel with the link in your confirmation email so someone on the waitlist can come.',
    cancel: "Can't make it? Cancel your RSVP so someone else can have the seat: {0}",
    cancelAfterAll: "Can't make it after all? Cancel here: {0}",
    event: 'Event: {0}',
    when: 'When: {0}',
    where: 'Where: {0}',
    party: 'Party: you{0}',
    guestOne: ' and {0} guest',
    guestMany: ' and {0} guests',
    eventPage: 'Event page: {0}',
    reminderText: 'Reminder: {0} is tomorrow, {1} at {2}.',
    calendarName: 'Events',
  },
  es: {
    locale: 'es-US',
    zoneNote: '(hora de Nueva Orleans)',
    subjectGoing: 'Asistirá: {0}',
    subjectWaitlisted: 'Está en la lista de espera: {0}',
    subjectPromoted: 'Se liberó un lugar: asistirá a {0}',
    subjectStatus: 'Su confirmación: {0}',
    subjectReminder: 'Mañana: {0}',
    going:
      'Gracias por confirmar su asistencia. Está en la lista; adjuntamos la invitación para su calendario.',
    waitlisted:
      'Este evento está lleno, así que está en la lista de espera{0}. Si se libera un lugar, le escribiremos de inmediato.',
    waitlistNumber: ' (número {0})',
    promoted:
      'Buenas noticias: se liberó un lugar y ya está en la lista. Adjuntamos la invitación para su calendario.',
    repeat: 'Recibimos otra confirmación para este evento con este correo electrónico, así que nada cambió.',
    alreadyGoing: 'Ya confirmó su asistencia: asistirá.',
    alreadyWaitlisted: 'Ya confirmó su asistencia: está en la lista de espera.',
    yourPlace: ' Su lugar: número {0}.',
    seatNotice: 'Si se libera un lugar, le escribiremos de inmediato.',
    notYou: 'Si usted no envió esa confirmación, puede ignorar este correo.',
    reminder: 'Le recordamos que viene mañana:',
    plansChanged:
      '¿Cambiaron sus planes? Cancele con el enlace de su correo de confirmación para que alguien de la lista de espera pueda venir.',
    cancel: '¿No puede venir? Cancele su asistencia para que otra persona tenga el lugar: {0}',
    cancelAfterAll: '¿Al final no puede venir? Cancele aquí: {0}',
    event: 'Evento: {0}',
    when: 'Cuándo: {0}',
    where: 'Dónde: {0}',
    party: 'Asistentes: usted{0}',
    guestOne: ' y {0} invitado',
    guestMany: ' y {0} invitados',
    eventPage: 'Página del evento: {0}',
    reminderText: 'Recordatorio: {0} es mañana, {1}, en {2}.',
    calendarName: 'Eventos',
  },
};
