import type * as en from '../pages.ts';
import { IDENTITY } from '../identity.ts';
import type { Translation } from '../translation.ts';
import { newsletter } from './campaign.ts';

/* Spanish of src/content/pages.ts (docs/decisions/166-spanish.md). */

export const notFoundCopy = {
  heading: 'Página no encontrada',
  text: 'La página que busca no existe o cambió de dirección.',
  homeLink: 'Volver al inicio',
} satisfies Translation<typeof en.notFoundCopy>;

export const articleNotFoundCopy = {
  heading: 'Artículo no encontrado',
  text: 'El artículo que busca no existe o ya no está publicado.',
  backLink: 'Volver a Noticias',
} satisfies Translation<typeof en.articleNotFoundCopy>;

export const blogCopy = {
  heading: 'Noticias y eventos',
  lead: `Lo último de la campaña de ${IDENTITY.candidateName}: propuestas, noticias de la campaña y eventos cerca de usted.`,
  eventsHeading: 'Próximos eventos',
  viewAllEvents: { label: 'Ver todos los eventos' },
  articlesHeading: 'Últimas noticias',
  readMore: 'Leer más',
  newsletter,
  pager: {
    label: 'Páginas de noticias',
    newer: 'Noticias más recientes',
    older: 'Noticias anteriores',
    status: (page: number, pages: number) => `Página ${page} de ${pages}`,
  },
  archiveHeading: (page: number) => `Archivo de noticias, página ${page}`,
  unavailable: 'No pudimos cargar las noticias en este momento. Inténtelo de nuevo en un minuto.',
} satisfies Translation<typeof en.blogCopy>;

// The staff pages stay English (docs/decisions/166-spanish.md); their words are translated only because the shape is one.
export const adminCopy = {
  heading: 'Panel de la campaña',
  noscript: 'El panel del personal necesita JavaScript. Actívelo y vuelva a cargar la página.',
} satisfies Translation<typeof en.adminCopy>;

export const resetPasswordCopy = {
  heading: 'Restablecer la contraseña',
  lead: 'Elija una contraseña nueva para su cuenta del personal.',
  backToLogin: 'Volver al inicio de sesión',
} satisfies Translation<typeof en.resetPasswordCopy>;

export const forgotPasswordCopy = {
  heading: 'Olvidé mi contraseña',
  lead: 'Escriba el correo de su cuenta del personal y le enviaremos una contraseña temporal.',
  backToLogin: 'Volver al inicio de sesión',
} satisfies Translation<typeof en.forgotPasswordCopy>;
