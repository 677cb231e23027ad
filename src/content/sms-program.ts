import { DEFAULT_LANG, type Lang } from '../lib/lang.ts';
import { RESUBSCRIBE_KEYWORDS } from './consent.ts';
import { IDENTITY } from './identity.ts';

/*
 * The programme's own texts, per language (docs/decisions/166-spanish.md): a sign-up is
 * confirmed in the language of its form, and HELP is answered in the language the person signed up in.
 * `Record<Lang, ...>` makes a missing language a type error. The programme name is the name registered with the
 * carriers, so it is not translated. Spanish wording for counsel to review, like the consent text (consent.ts).
 * Sent by the text sign-up (src/lib/server/texting/text-signups.ts) and the inbound webhook
 * (src/lib/server/texting/sms-webhook.ts), always through the text guard.
 */
export const SMS_PROGRAM_TEXTS: Record<Lang, { confirmation: string; help: string; stopped: string }> = {
  en: {
    confirmation:
      `${IDENTITY.smsProgramName}: Thanks for signing up for campaign texts! Msg frequency varies. ` +
      'Msg & data rates may apply. Reply HELP for help, STOP to unsubscribe.',
    help:
      `${IDENTITY.smsProgramName}: campaign updates from ${IDENTITY.committeeName}. ` +
      `Help: ${IDENTITY.emails.general} or ${IDENTITY.phone.display}. Msg frequency varies. Msg & data rates may apply. ` +
      'Reply STOP to unsubscribe.',
    stopped: `${IDENTITY.smsProgramName}: You're unsubscribed and will get no more texts. Reply START to resubscribe.`,
  },
  es: {
    confirmation:
      `${IDENTITY.smsProgramName}: ¡Gracias por suscribirse a los mensajes de la campaña! La frecuencia de los ` +
      'mensajes varía. Pueden aplicarse tarifas de mensajes y datos. Responda AYUDA para obtener ayuda y ALTO ' +
      'para cancelar.',
    help:
      `${IDENTITY.smsProgramName}: noticias de la campaña de ${IDENTITY.committeeName}. ` +
      `Ayuda: ${IDENTITY.emails.general} o ${IDENTITY.phone.display}. La frecuencia de los mensajes varía. ` +
      'Pueden aplicarse tarifas de mensajes y datos. Responda ALTO para cancelar.',
    stopped:
      `${IDENTITY.smsProgramName}: Su suscripción fue cancelada y no recibirá más mensajes. ` +
      `Responda ${RESUBSCRIBE_KEYWORDS.es} para volver a suscribirse.`,
  },
};

/** The one confirmation text of a new opt-in, in the sign-up's language. */
export function confirmationText(lang: Lang = DEFAULT_LANG): string {
  return SMS_PROGRAM_TEXTS[lang].confirmation;
}

/** Our reply to HELP, in the person's language. */
export function helpText(lang: Lang = DEFAULT_LANG): string {
  return SMS_PROGRAM_TEXTS[lang].help;
}

/** Our confirmation of a plain-language stop request (Twilio confirms keyword STOPs itself). */
export function stoppedText(lang: Lang = DEFAULT_LANG): string {
  return SMS_PROGRAM_TEXTS[lang].stopped;
}
