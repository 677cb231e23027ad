import type { Lang } from '../lib/lang.ts';
import { IDENTITY } from './identity.ts';
import { fingerprint } from '../lib/fingerprint.ts';

/*
 * The consent wordings shown beside the sign-up boxes and stored verbatim in
 * every consent record (SECURITY.md, "SMS, captcha, input"), derived from the
 * one identity module so they always name the committee of the paid-for line.
 */

/** The SMS consent wording for a committee (the checkbox label of the text sign-up), in a language. */
export function smsConsentText(committeeName: string = IDENTITY.committeeName, lang: Lang = 'en'): string {
  if (lang === 'es') {
    // Translation for counsel to review (docs/decisions/166-spanish.md): same terms as the English wording.
    return (
      `Al marcar esta casilla, acepto recibir mensajes de texto recurrentes de ${committeeName}, ` +
      'incluidos mensajes enviados con marcador automático. La frecuencia de los mensajes varía. ' +
      'Pueden aplicarse tarifas de mensajes y datos. Responda AYUDA para obtener ayuda y ALTO para cancelar la ' +
      'suscripción. El consentimiento no es condición para ninguna compra ni donación. ' +
      'Consulte nuestra Política de Privacidad y nuestros Términos de Uso.'
    );
  }
  return (
    `By checking this box, I agree to receive recurring text messages from ${committeeName}, ` +
    'including messages sent by autodialer. Message frequency varies. Msg & data rates may apply. ' +
    'Reply HELP for help and STOP to unsubscribe. Consent is not a condition of any purchase or donation. ' +
    'See our Privacy Policy and Terms of Use.'
  );
}

/** Keywords that resubscribe a number that replied STOP (Twilio Advanced Opt-Out must list the same). */
export const RESUBSCRIBE_KEYWORDS = { en: 'START', es: 'COMENZAR' } as const;

/** The wording shown today (English). */
export const SMS_CONSENT_TEXT = smsConsentText();

/**
 * What the newsletter box says the subscriber agrees to, in a language (stored
 * with each email subscription: the Spanish box records the Spanish wording).
 */
export function emailConsentText(committeeName: string = IDENTITY.committeeName, lang: Lang = 'en'): string {
  if (lang === 'es') {
    // Translation for counsel to review (docs/decisions/166-spanish.md): same terms as the English wording.
    return (
      `Al suscribirse, acepta recibir correos electrónicos de la campaña de ${committeeName}. ` +
      'Puede cancelar la suscripción en cualquier momento. Consulte nuestra Política de Privacidad.'
    );
  }
  return (
    `By subscribing, you agree to receive campaign emails from ${committeeName}. ` +
    'You can unsubscribe at any time. See our Privacy Policy.'
  );
}

/** The wording the English box shows. */
export const EMAIL_CONSENT_TEXT = emailConsentText();

/** Date the current wordings were adopted (the Terms' "last updated"); part of each version. */
const WORDING_DATE = '2025-09-17';

/**
 * The consent version recorded with each opt-in: the wording's date plus its
 * fingerprint, so ANY change to the text (or to the committee name in it)
 * yields a new version without anyone remembering to bump it.
 */
export const SMS_CONSENT_VERSION = `${WORDING_DATE}.${fingerprint(SMS_CONSENT_TEXT)}`;

/** The SMS consent wording and its version per language (the text sign-up on /es/ records the Spanish one). */
export const SMS_CONSENT: Record<Lang, { text: string; version: string }> = {
  en: { text: SMS_CONSENT_TEXT, version: SMS_CONSENT_VERSION },
  es: {
    text: smsConsentText(IDENTITY.committeeName, 'es'),
    version: `${WORDING_DATE}.${fingerprint(smsConsentText(IDENTITY.committeeName, 'es'))}`,
  },
};
export const EMAIL_CONSENT_VERSION = `${WORDING_DATE}.${fingerprint(EMAIL_CONSENT_TEXT)}`;

/** The email consent wording and its version per language (the newsletter box on /es/blog records the Spanish one). */
export const EMAIL_CONSENT: Record<Lang, { text: string; version: string }> = {
  en: { text: EMAIL_CONSENT_TEXT, version: EMAIL_CONSENT_VERSION },
  es: {
    text: emailConsentText(IDENTITY.committeeName, 'es'),
    version: `${WORDING_DATE}.${fingerprint(emailConsentText(IDENTITY.committeeName, 'es'))}`,
  },
};

/**
 * The plan-to-vote reminders' consents (docs/decisions/158-plan-to-vote.md), one box per channel, unchecked by
 * default, stored verbatim with the plan (and the text one in the text list's consent log). They cover this plan's
 * reminders only (at most two messages): they never put anyone on the recurring text list or the newsletter.
 */
export function planSmsConsentText(
  committeeName: string = IDENTITY.committeeName,
  lang: Lang = 'en',
): string {
  if (lang === 'es') {
    // Translation for counsel to review, same terms as the English wording.
    return (
      `Envíenme por mensaje de texto un recordatorio de mi plan para votar (la noche antes de mi día y, si no he ` +
      `votado, la mañana del día de la elección). Al marcar esta casilla, acepto recibir hasta dos mensajes de ` +
      `${committeeName}, incluidos mensajes enviados con marcador automático. Pueden aplicarse tarifas de mensajes ` +
      'y datos. Responda AYUDA para obtener ayuda y ALTO para cancelar. El consentimiento no es condición para votar.'
    );
  }
  return (
    'Text me a reminder of my plan to vote (the evening before my day and, if I have not voted, on Election Day ' +
    `morning). By checking this box, I agree to receive up to two text messages from ${committeeName}, including ` +
    'messages sent by autodialer. Msg & data rates may apply. Reply HELP for help and STOP to opt out. Consent is ' +
    'not a condition of voting.'
  );
}

export function planEmailConsentText(
  committeeName: string = IDENTITY.committeeName,
  lang: Lang = 'en',
): string {
  if (lang === 'es') {
    return (
      `Envíenme por correo electrónico un recordatorio de mi plan para votar (hasta dos correos de ${committeeName}). ` +
      'Cada correo tiene un enlace para dejar de recibirlos.'
    );
  }
  return (
    `Email me a reminder of my plan to vote (up to two emails from ${committeeName}). ` +
    'Every email has a link to stop them.'
  );
}

/** The plan-to-vote consent wordings and versions per language (the wording's fingerprint is in the version). */
export const PLAN_CONSENT: Record<Lang, Record<'sms' | 'email', { text: string; version: string }>> = {
  en: {
    sms: { text: planSmsConsentText(), version: `plan.${fingerprint(planSmsConsentText())}` },
    email: { text: planEmailConsentText(), version: `plan.${fingerprint(planEmailConsentText())}` },
  },
  es: {
    sms: {
      text: planSmsConsentText(IDENTITY.committeeName, 'es'),
      version: `plan.es.${fingerprint(planSmsConsentText(IDENTITY.committeeName, 'es'))}`,
    },
    email: {
      text: planEmailConsentText(IDENTITY.committeeName, 'es'),
      version: `plan.es.${fingerprint(planEmailConsentText(IDENTITY.committeeName, 'es'))}`,
    },
  },
};
