import { RESUBSCRIBE_KEYWORDS } from '../consent.ts';
import type * as en from '../forms.ts';
import { IDENTITY } from '../identity.ts';
import { NEWSLETTER_CONFIRM } from '../../lib/schemas/public-forms.ts';
import type { Translation } from '../translation.ts';

/* Spanish of src/content/forms.ts (docs/decisions/166-spanish.md). */

export const formCopy = {
  'text-signup': {
    name: 'Inscripción a mensajes de texto',
    outcomes: {
      sent: {
        heading: '¡Ya está inscrito!',
        text: 'Gracias por inscribirse a nuestros mensajes de texto. Responda ALTO en cualquier momento para cancelar la suscripción.',
        link: { label: 'Volver al inicio' },
      },
      opted_out: {
        heading: 'Envíe COMENZAR desde su teléfono',
        text:
          'Este número nos pidió que dejáramos de enviarle mensajes, así que no se puede volver a inscribir desde el sitio web. ' +
          `Para volver a recibir nuestros mensajes, responda ${RESUBSCRIBE_KEYWORDS.es} (o ${RESUBSCRIBE_KEYWORDS.en}) desde ese teléfono ` +
          `a cualquier mensaje que haya recibido de ${IDENTITY.smsProgramName}.`,
        link: { label: 'Usar otro número' },
      },
    },
  },
  volunteer: {
    name: 'Inscripción de voluntarios',
    outcomes: {
      sent: {
        heading: '¡Gracias por ofrecerse como voluntario!',
        text: 'Recibimos su inscripción. Nuestro equipo de voluntarios se comunicará con usted pronto con los siguientes pasos.',
        link: { label: 'Inscribir a otro voluntario' },
      },
    },
  },
  contact: {
    name: 'Formulario de contacto',
    outcomes: {
      sent: {
        heading: '¡Mensaje enviado!',
        text: 'Le responderemos en menos de 24 horas.',
        link: { label: 'Volver a la página de contacto' },
      },
    },
  },
  newsletter: {
    name: 'Inscripción al boletín',
    outcomes: {
      sent: {
        heading: '¡Gracias por suscribirse!',
        text: `Revise su bandeja de entrada: le enviamos un enlace para confirmar su suscripción. Vale por ${NEWSLETTER_CONFIRM.days} días, y agregamos su correo a nuestra lista solo cuando lo confirme.`,
        link: { label: 'Volver a Noticias' },
      },
    },
  },
  'newsletter-confirm': {
    name: 'Confirmación del boletín',
    outcomes: {
      sent: {
        heading: '¡Ya está suscrito!',
        text: 'Gracias por confirmar. Le mantendremos al tanto de las noticias de la campaña.',
        link: { label: 'Volver a Noticias' },
      },
      already_confirmed: {
        heading: 'Ya estaba confirmado',
        text: 'Este correo ya estaba confirmado, así que no hace falta nada más. ¡Gracias por seguir la campaña!',
        link: { label: 'Volver a Noticias' },
      },
    },
  },
  'forgot-password': {
    name: 'Olvidé mi contraseña',
    outcomes: {
      sent: {
        heading: '¡Correo enviado!',
        text: 'Si existe una cuenta con ese correo, le enviamos una contraseña temporal. Revise su bandeja de entrada e inicie sesión con ella.',
        link: { label: 'Volver al inicio de sesión' },
      },
    },
  },
  rsvp: {
    name: 'Confirmación de asistencia',
    outcomes: {
      sent: {
        heading: '¡Asistirá!',
        text: 'Le enviamos la confirmación por correo electrónico, con un enlace para cancelar si cambian sus planes.',
        link: { label: 'Ver todos los eventos' },
      },
      waitlisted: {
        heading: 'Está en la lista de espera',
        text: 'Este evento está lleno, así que está en la lista de espera. Le escribiremos si se libera un lugar.',
        link: { label: 'Ver todos los eventos' },
      },
    },
  },
  'vote-plan': {
    name: 'Plan para votar',
    outcomes: {
      sent: {
        heading: 'Su plan está guardado',
        text: 'Su plan para votar está guardado.',
        link: { label: 'Cómo votar' },
      },
    },
  },
  'vote-plan-update': {
    name: 'Plan para votar',
    outcomes: {
      sent: {
        heading: 'Su plan está actualizado',
        text: 'Su plan para votar está guardado.',
        link: { label: 'Cómo votar' },
      },
      voted: {
        heading: '¡Gracias por votar!',
        text: '¡Gracias por votar! No le enviaremos más recordatorios.',
        link: { label: 'Volver a la página de inicio' },
      },
      stopped: {
        heading: 'Recordatorios detenidos',
        text: 'Sus recordatorios están detenidos. No le enviaremos más recordatorios de este plan.',
        link: { label: 'Cómo votar' },
      },
      resumed: {
        heading: 'Recordatorios activos de nuevo',
        text: 'Sus recordatorios están activos de nuevo.',
        link: { label: 'Cómo votar' },
      },
    },
  },
  'rsvp-cancel': {
    name: 'Cancelación de asistencia',
    outcomes: {
      sent: {
        heading: 'Asistencia cancelada',
        text: 'Su confirmación de asistencia quedó cancelada. Gracias por avisarnos.',
        link: { label: 'Ver todos los eventos' },
      },
    },
  },
  'reset-password': {
    name: 'Restablecer la contraseña',
    outcomes: {
      sent: {
        heading: 'Contraseña restablecida',
        text: 'Su contraseña se actualizó. Ya puede iniciar sesión con la contraseña nueva.',
        link: { label: 'Volver al inicio de sesión' },
      },
    },
  },
} satisfies Translation<typeof en.formCopy>;

export const refusedCopy = {
  heading: 'Revise el formulario',
  expired: 'Esta página venció. Llene el formulario de nuevo.',
  byStatus: {
    400: 'Revise el formulario e inténtelo de nuevo.',
    403: 'Este formulario se debe enviar desde nuestro propio sitio web. Inténtelo de nuevo desde la página.',
    410: 'Este formulario está cerrado.',
    413: 'Envió demasiado texto de una vez. Acorte su mensaje e inténtelo de nuevo.',
    429: 'Demasiados intentos. Espere un poco e inténtelo de nuevo.',
    503: 'El servicio no está disponible por el momento. Inténtelo de nuevo en un minuto.',
  } as Record<number, string>,
  fallback: 'Algo salió mal. Inténtelo de nuevo.',
} satisfies Translation<typeof en.refusedCopy>;

export const captchaNeedsJavaScript = `La verificación contra spam de este formulario (CAPTCHA) necesita JavaScript. Active JavaScript para enviarlo o escríbanos a ${IDENTITY.emails.general}.`;

export const newsletterForm = {
  label: 'Correo electrónico',
  placeholder: 'Su correo electrónico',
  submit: 'Suscribirme',
  failure: 'No se pudo completar la suscripción',
  formLabel: 'Inscripción al boletín',
  tryLater: 'Inténtelo de nuevo más tarde',
  invalidEmail: 'Escriba un correo electrónico válido',
} satisfies Translation<typeof en.newsletterForm>;

export const newsletterConfirmPage = {
  title: 'Confirme su suscripción',
  description: 'Confirme su suscripción a las noticias de la campaña por correo electrónico.',
  heading: 'Confirme su suscripción',
  text: `Presione el botón para confirmar que desea recibir noticias de la campaña de ${IDENTITY.committeeName} en este correo electrónico.`,
  formLabel: 'Confirme su suscripción al boletín',
  submit: 'Confirmar mi suscripción',
  badLink:
    'Este enlace de confirmación no es válido o ya venció. Suscríbase de nuevo desde el recuadro del boletín.',
  subscribeAgain: { label: 'Suscribirme de nuevo' },
} satisfies Translation<typeof en.newsletterConfirmPage>;

export const newsletterEmails = {
  confirm: {
    subject: 'Confirme su suscripción',
    text: (link: string) =>
      [
        'Hola:',
        '',
        `Alguien (esperamos que usted) pidió recibir noticias de la campaña de ${IDENTITY.committeeName} en este correo, desde el recuadro del boletín de nuestro sitio web.`,
        '',
        'Para confirmar, abra este enlace y presione "Confirmar mi suscripción":',
        link,
        '',
        `El enlace funciona una sola vez y vence en ${NEWSLETTER_CONFIRM.days} días. Si usted no lo pidió, ignore este correo: no agregaremos su dirección a nuestra lista.`,
        '',
        IDENTITY.committeeName,
      ].join('\n'),
  },
  already: {
    subject: 'Ya está suscrito',
    text: [
      'Hola:',
      '',
      `Alguien (esperamos que usted) pidió recibir noticias de la campaña de ${IDENTITY.committeeName} en este correo, desde el recuadro del boletín de nuestro sitio web. Este correo ya está en nuestra lista, así que no hace falta nada más.`,
      '',
      IDENTITY.committeeName,
    ].join('\n'),
  },
} satisfies Translation<typeof en.newsletterEmails>;
