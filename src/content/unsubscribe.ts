import type { Lang } from '../lib/lang.ts';
import { IDENTITY } from './identity.ts';

/**
 * The bulk email's unsubscribe pages (docs/decisions/167-email-and-newsletter.md), in both
 * languages. Spanish wording for counsel to review, like the consent texts.
 */
export const UNSUBSCRIBE_COPY: Record<
  Lang,
  {
    title: string;
    description: string;
    heading: string;
    text: string;
    formLabel: string;
    submit: string;
    badLink: string;
    doneHeading: string;
    doneText: string;
    home: string;
  }
> = {
  en: {
    title: 'Unsubscribe',
    description: `Stop campaign emails from ${IDENTITY.committeeName}.`,
    heading: 'Unsubscribe from campaign emails',
    text: `Press the button to stop receiving campaign emails from ${IDENTITY.committeeName}. It takes effect at once.`,
    formLabel: 'Unsubscribe',
    submit: 'Unsubscribe',
    badLink: `This unsubscribe link is not complete. Please use the link in the latest email, or write to ${IDENTITY.emails.general}.`,
    doneHeading: 'You are unsubscribed',
    doneText: `You will receive no more campaign emails from ${IDENTITY.committeeName}.`,
    home: 'Back to the home page',
  },
  es: {
    title: 'Cancelar la suscripción',
    description: `Deje de recibir correos de la campaña de ${IDENTITY.committeeName}.`,
    heading: 'Cancelar la suscripción a los correos de la campaña',
    text: `Pulse el botón para dejar de recibir correos de la campaña de ${IDENTITY.committeeName}. El cambio es inmediato.`,
    formLabel: 'Cancelar la suscripción',
    submit: 'Cancelar la suscripción',
    badLink: `Este enlace no está completo. Use el enlace del correo más reciente o escriba a ${IDENTITY.emails.general}.`,
    doneHeading: 'Su suscripción fue cancelada',
    doneText: `No recibirá más correos de la campaña de ${IDENTITY.committeeName}.`,
    home: 'Volver a la página de inicio',
  },
};
