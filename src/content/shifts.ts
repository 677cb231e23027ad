import type { Lang } from '../lib/lang.ts';

/**
 * The copy of volunteer shifts (docs/decisions/181-shifts.md): the event page's list of shifts and the sign-up's
 * emails, in the language of the page. `{0}`-style placeholders are filled with `fill` (src/lib/fill.ts). Spanish
 * wording for the campaign to review.
 */
export interface ShiftCopy {
  heading: string;
  intro: string;
  /** {0}: places left. */
  placesLeft: string;
  full: string;
  /** {0}: people already waiting. */
  joinWaitlist: string;
  pickOne: string;
  submit: string;
  /** A slot's line in an email: {0} the shift (date and hours), {1} the status. */
  emailLine: string;
  going: string;
  /** {0}: the place on the waitlist. */
  waitlisted: string;
  subjectSignup: string;
  /** {0}: the event. */
  subjectPromoted: string;
  signedUp: string;
  /** {0}: the shift. */
  promoted: string;
  /** {0}: the shift, {1}: the cancellation link. */
  cancelShift: string;
  /** {0}: the shift's calendar file link. */
  addToCalendar: string;
  /** The link beside each shift on the event page. */
  calendarLink: string;
  /** {0}: the event. */
  subjectChanged: string;
  /** {0}: the shift as it is now. */
  changed: string;
  /** {0}: the event. */
  subjectCancelled: string;
  /** {0}: the shift that was cancelled. */
  cancelled: string;
  /** A text: {0} the event, {1} the shift as it is now. */
  textChanged: string;
  /** A text: {0} the event, {1} the shift cancelled. */
  textCancelled: string;
}

export const SHIFT_COPY = {
  en: {
    heading: 'Shifts',
    intro:
      'Pick one or more shifts. Each has its own places; when a shift is full you can join its waitlist.',
    placesLeft: '{0} places left',
    full: 'Full',
    joinWaitlist: 'join the waitlist ({0} waiting)',
    pickOne: 'Choose at least one shift.',
    submit: 'Sign up for these shifts',
    emailLine: '- {0}: {1}',
    going: "you're on the shift",
    waitlisted: 'on the waitlist (number {0})',
    subjectSignup: 'Your shifts: {0}',
    subjectPromoted: "A place opened up: you're on the shift ({0})",
    signedUp: 'Thank you for signing up. Your shifts:',
    promoted: "A place opened up and you're now on this shift: {0}",
    cancelShift: 'Cannot make {0}? Cancel this shift: {1}',
    addToCalendar: 'Add it to your calendar: {0}',
    calendarLink: 'Add to calendar',
    subjectChanged: 'Your shift has changed: {0}',
    changed: 'The time or place of your shift has changed. It is now: {0}',
    subjectCancelled: 'Your shift is cancelled: {0}',
    cancelled:
      'We are sorry: this shift is cancelled and you do not need to come: {0}. Thank you for signing up.',
    textChanged: '{0}: your shift has changed. It is now {1}',
    textCancelled: '{0}: your shift {1} is cancelled. You do not need to come. Thank you!',
  },
  es: {
    heading: 'Turnos',
    intro:
      'Elija uno o más turnos. Cada uno tiene sus propios lugares; si un turno está lleno puede unirse a su lista de espera.',
    placesLeft: 'Quedan {0} lugares',
    full: 'Lleno',
    joinWaitlist: 'unirse a la lista de espera ({0} esperando)',
    pickOne: 'Elija al menos un turno.',
    submit: 'Inscribirme en estos turnos',
    emailLine: '- {0}: {1}',
    going: 'está en el turno',
    waitlisted: 'en la lista de espera (número {0})',
    subjectSignup: 'Sus turnos: {0}',
    subjectPromoted: 'Se abrió un lugar: está en el turno ({0})',
    signedUp: 'Gracias por inscribirse. Sus turnos:',
    promoted: 'Se abrió un lugar y ahora está en este turno: {0}',
    cancelShift: '¿No puede asistir a {0}? Cancele este turno: {1}',
    addToCalendar: 'Agréguelo a su calendario: {0}',
    calendarLink: 'Agregar al calendario',
    subjectChanged: 'Su turno cambió: {0}',
    changed: 'La hora o el lugar de su turno cambió. Ahora es: {0}',
    subjectCancelled: 'Su turno se canceló: {0}',
    cancelled: 'Lo sentimos: este turno se canceló y no necesita venir: {0}. Gracias por inscribirse.',
    textChanged: '{0}: su turno cambió. Ahora es {1}',
    textCancelled: '{0}: su turno {1} se canceló. No necesita venir. ¡Gracias!',
  },
} as const satisfies Record<Lang, ShiftCopy>;
