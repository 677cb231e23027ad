import type { Lang } from '../lib/lang.ts';

/*
 * Copy of a supporter's own page, "My campaign" (docs/decisions/182-supporter-page.md): the sign-in link's answer
 * and email, and the consent wording the page records when texts are resumed. Both languages in one typed shape.
 */
export interface SupporterCopy {
  /** The one answer to a sign-in link request, whether or not the address is known. */
  linkSent: string;
  emailSubject: string;
  emailBody: (link: string) => string;
  /** The consent box's wording, recorded with a resumed channel. */
  resumeTextsConsent: string;
  /** The confirmation box of "delete my data", and what it deletes. */
  forgetConfirm: string;
  forgetSummary: string;
  invalidLink: string;
  signInFirst: string;
  consentRequired: string;
  forgetConfirmRequired: string;
}

export const SUPPORTER_COPY: Record<Lang, SupporterCopy> = {
  en: {
    linkSent:
      'If we have that email address, a sign-in link is on its way. It works once, for 15 minutes. Check your inbox.',
    emailSubject: 'Your sign-in link for My campaign',
    emailBody: (link) =>
      [
        'Someone (hopefully you) asked to see your page on our campaign site.',
        '',
        `Open this link and press "Sign in": ${link}`,
        '',
        'It works once, for 15 minutes. If you did not ask for it, ignore this email: nothing changes, and nobody else can see your page. Do not forward it: whoever opens it first signs in as you.',
      ].join('\n'),
    resumeTextsConsent:
      'I agree to receive recurring campaign text messages at the number(s) on file. Msg & data rates may apply. Reply STOP to cancel, HELP for help.',
    forgetConfirm: 'Yes, delete everything the campaign holds about me.',
    forgetSummary:
      'This deletes your sign-ups, RSVPs, plan to vote, text and email list entries, messages you sent us and your invite link. We keep only a scrambled fingerprint of your email and phone so an old list cannot add you back. Donations stay in the legal ledger without your name. This cannot be undone.',
    invalidLink: 'This sign-in link is invalid, used or expired. Please ask for a new one.',
    signInFirst: 'Please sign in with a link sent to your email.',
    consentRequired: 'Please check the box to agree to receive texts.',
    forgetConfirmRequired: 'Please check the box to confirm.',
  },
  es: {
    linkSent:
      'Si tenemos esa dirección de correo, le enviamos un enlace para entrar. Funciona una vez, durante 15 minutos. Revise su bandeja de entrada.',
    emailSubject: 'Su enlace para entrar a Mi campaña',
    emailBody: (link) =>
      [
        'Alguien (ojalá usted) pidió ver su página en el sitio de nuestra campaña.',
        '',
        `Abra este enlace y pulse "Entrar": ${link}`,
        '',
        'Funciona una vez, durante 15 minutos. Si no lo pidió, ignore este correo: nada cambia y nadie más puede ver su página. No lo reenvíe: quien lo abra primero entra como usted.',
      ].join('\n'),
    resumeTextsConsent:
      'Acepto recibir mensajes de texto recurrentes de la campaña en los números registrados. Pueden aplicarse tarifas de mensajes y datos. Responda STOP para cancelar, HELP para ayuda.',
    forgetConfirm: 'Sí, borren todo lo que la campaña tiene sobre mí.',
    forgetSummary:
      'Esto borra sus inscripciones, confirmaciones de asistencia, plan para votar, sus registros en las listas de textos y correos, los mensajes que nos envió y su enlace de invitación. Solo guardamos una huella cifrada de su correo y teléfono para que una lista antigua no lo vuelva a agregar. Las donaciones quedan en el registro legal sin su nombre. No se puede deshacer.',
    invalidLink: 'Este enlace para entrar no es válido, ya se usó o venció. Pida uno nuevo.',
    signInFirst: 'Entre con un enlace enviado a su correo.',
    consentRequired: 'Marque la casilla para aceptar recibir textos.',
    forgetConfirmRequired: 'Marque la casilla para confirmar.',
  },
};
