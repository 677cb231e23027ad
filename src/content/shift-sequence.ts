import type { Lang } from '../lib/lang.ts';

/**
 * The copy of the shifts' confirm-and-remind sequence (docs/decisions/181-shifts.md, "The sequence"), in the
 * volunteer's language. `{0}`-style placeholders are filled with `fill` (src/lib/fill.ts). Texts get the program
 * name and the opt-out line from the compliance rule (src/lib/text-compliance.ts); emails get the paid-for line,
 * the address and the unsubscribe link from the email guard. Spanish wording for the campaign to review.
 */
export interface ShiftSequenceCopy {
  /** {0}: the shift; {1}: the link to confirm or cancel. */
  dayBeforeText: string;
  /** {0}: the event. */
  dayBeforeSubject: string;
  /** {0}: the shift. */
  dayBeforeBody: string;
  /** {0}: the link. */
  confirmLink: string;
  /** {0}: the link. */
  cancelLink: string;
  /** {0}: the event. */
  morningSubject: string;
  /** {0}: the shift. */
  morningBody: string;
  /** {0}: the shift. */
  soonText: string;
  /** {0}: the event. */
  followUpSubject: string;
  /** {0}: the shift. */
  followUpBody: string;
  /** {0}: the link. */
  attendedLink: string;
  /** {0}: the link. */
  absentLink: string;
  thanks: string;
  /** The answers to a reply (1 / SÍ, 2 / NO), {0}: the shift. */
  confirmedReply: string;
  cancelledReply: string;
  /** The link's page: its heading and buttons, and what it says after. */
  pageTitle: string;
  confirmButton: string;
  cancelButton: string;
  attendedButton: string;
  absentButton: string;
  confirmedDone: string;
  cancelledDone: string;
  attendedDone: string;
  absentDone: string;
  badLink: string;
}

export const SHIFT_SEQUENCE_COPY = {
  en: {
    dayBeforeText: 'Your shift tomorrow: {0}. Reply 1 to confirm or 2 to cancel, or answer here: {1}',
    dayBeforeSubject: 'Tomorrow: your shift ({0})',
    dayBeforeBody: 'Your shift is tomorrow: {0}. Can you still make it? Please confirm or cancel:',
    confirmLink: "Yes, I'll be there: {0}",
    cancelLink: "No, I can't make it (frees your place for someone else): {0}",
    morningSubject: 'Today: your shift ({0})',
    morningBody: 'Your shift is today: {0}. Thank you for volunteering!',
    soonText: 'Your shift starts soon: {0}. Thank you!',
    followUpSubject: 'How did it go? ({0})',
    followUpBody: 'Thank you for signing up for this shift: {0}. Please tell us how it went:',
    attendedLink: 'I was there: {0}',
    absentLink: 'I could not come: {0}',
    thanks: 'Thank you!',
    confirmedReply: "Thank you, you're confirmed: {0}",
    cancelledReply: "Thank you for telling us. You're off this shift: {0}",
    pageTitle: 'Your shift',
    confirmButton: "Yes, I'll be there",
    cancelButton: "No, I can't make it",
    attendedButton: 'I was there',
    absentButton: 'I could not come',
    confirmedDone: "Thank you, you're confirmed.",
    cancelledDone: "Thank you for telling us. You're off this shift.",
    attendedDone: 'Thank you for volunteering!',
    absentDone: 'Thank you for telling us. We hope to see you at another shift.',
    badLink: 'This link is not valid. Please use the link from your email or text.',
  },
  es: {
    dayBeforeText:
      'Su turno de mañana: {0}. Responda SÍ (o 1) para confirmar o NO (o 2) para cancelar, o aquí: {1}',
    dayBeforeSubject: 'Mañana: su turno ({0})',
    dayBeforeBody: 'Su turno es mañana: {0}. ¿Todavía puede asistir? Confirme o cancele:',
    confirmLink: 'Sí, ahí estaré: {0}',
    cancelLink: 'No puedo asistir (su lugar queda libre para otra persona): {0}',
    morningSubject: 'Hoy: su turno ({0})',
    morningBody: 'Su turno es hoy: {0}. ¡Gracias por ser voluntario!',
    soonText: 'Su turno empieza pronto: {0}. ¡Gracias!',
    followUpSubject: '¿Cómo le fue? ({0})',
    followUpBody: 'Gracias por inscribirse en este turno: {0}. Cuéntenos cómo le fue:',
    attendedLink: 'Asistí: {0}',
    absentLink: 'No pude asistir: {0}',
    thanks: '¡Gracias!',
    confirmedReply: 'Gracias, su turno está confirmado: {0}',
    cancelledReply: 'Gracias por avisarnos. Ya no está en este turno: {0}',
    pageTitle: 'Su turno',
    confirmButton: 'Sí, ahí estaré',
    cancelButton: 'No puedo asistir',
    attendedButton: 'Asistí',
    absentButton: 'No pude asistir',
    confirmedDone: 'Gracias, su turno está confirmado.',
    cancelledDone: 'Gracias por avisarnos. Ya no está en este turno.',
    attendedDone: '¡Gracias por ser voluntario!',
    absentDone: 'Gracias por avisarnos. Esperamos verle en otro turno.',
    badLink: 'Este enlace no es válido. Use el enlace de su correo o mensaje de texto.',
  },
} as const satisfies Record<Lang, ShiftSequenceCopy>;

/**
 * The words that differ for an event without slots (its implicit slot: docs/decisions/181-shifts.md, "The event
 * without slots"): an RSVP to an event, not a volunteer's shift. `{0}` is the event's day and hours and its title.
 */
export const EVENT_SEQUENCE_WORDS = {
  en: {
    dayBeforeText: 'You RSVPed for tomorrow: {0}. Reply 1 to confirm or 2 to cancel, or answer here: {1}',
    dayBeforeSubject: 'Tomorrow: can you still make it? ({0})',
    dayBeforeBody: 'You RSVPed for tomorrow: {0}. Can you still make it? Please confirm or cancel:',
    morningSubject: 'Today: {0}',
    morningBody: 'See you today: {0}. Thank you for coming!',
    soonText: 'Starting soon: {0}. See you there!',
    followUpBody: 'Thank you for your RSVP: {0}. Please tell us how it went:',
    cancelledReply: 'Thank you for telling us. Your RSVP is cancelled: {0}',
    pageTitle: 'Your RSVP',
    cancelledDone: 'Thank you for telling us. Your RSVP is cancelled.',
    attendedDone: 'Thank you for coming!',
    absentDone: 'Thank you for telling us. We hope to see you at another event.',
  },
  es: {
    dayBeforeText:
      'Usted confirmó asistencia para mañana: {0}. Responda SÍ (o 1) para confirmar o NO (o 2) para cancelar, o aquí: {1}',
    dayBeforeSubject: 'Mañana: ¿todavía puede asistir? ({0})',
    dayBeforeBody: 'Usted confirmó asistencia para mañana: {0}. ¿Todavía puede asistir? Confirme o cancele:',
    morningSubject: 'Hoy: {0}',
    morningBody: 'Nos vemos hoy: {0}. ¡Gracias por venir!',
    soonText: 'Empieza pronto: {0}. ¡Nos vemos ahí!',
    followUpBody: 'Gracias por confirmar su asistencia: {0}. Cuéntenos cómo le fue:',
    confirmedReply: 'Gracias, su asistencia está confirmada: {0}',
    confirmedDone: 'Gracias, su asistencia está confirmada.',
    cancelledReply: 'Gracias por avisarnos. Su reservación quedó cancelada: {0}',
    pageTitle: 'Su reservación',
    cancelledDone: 'Gracias por avisarnos. Su reservación quedó cancelada.',
    attendedDone: '¡Gracias por venir!',
    absentDone: 'Gracias por avisarnos. Esperamos verle en otro evento.',
  },
} as const satisfies Record<Lang, Partial<ShiftSequenceCopy>>;

/** The sequence's words in a language: a shift's, or an event's without slots (`plain`). */
export const sequenceCopy = (lang: Lang, plain: boolean): ShiftSequenceCopy =>
  plain ? { ...SHIFT_SEQUENCE_COPY[lang], ...EVENT_SEQUENCE_WORDS[lang] } : SHIFT_SEQUENCE_COPY[lang];
