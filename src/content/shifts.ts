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
  },
} as const satisfies Record<Lang, ShiftCopy>;
