import type * as en from '../metadata.ts';
import { IDENTITY } from '../identity.ts';
import type { Translation } from '../translation.ts';
import { articleNotFoundCopy } from './pages.ts';

/* Spanish of src/content/metadata.ts (docs/decisions/166-spanish.md). */

const name = IDENTITY.candidateName;
const race = 'alcaldía de Nueva Orleans';
const suffix = `${name}, candidato a la ${race}`;
const baseKeywords = `${name}, ${race}, elecciones de Nueva Orleans 2025, en español`;

export const pageMeta = {
  home: {
    title: `${suffix} | Candidato reformista, un solo mandato`,
    description: `${name} es el candidato reformista a la ${race}: un contador que se compromete a un solo mandato para sanear las finanzas, la infraestructura y la seguridad pública de la ciudad.`,
    keywords: `${baseKeywords}, candidato reformista, un solo mandato`,
  },
  about: {
    title: `Biografía de ${name} | ${suffix}`,
    description: `Biografía, experiencia, valores y el compromiso de un solo mandato de ${name}, candidato a la ${race}.`,
    keywords: `${baseKeywords}, biografía, un solo mandato, contador`,
  },
  platform: {
    title: `Propuestas: diez prioridades | ${suffix}`,
    description:
      'Diez prioridades para Nueva Orleans: seguridad pública, infraestructura, reforma financiera, vivienda, empleo y más.',
    keywords: `${baseKeywords}, propuestas, seguridad pública, infraestructura, vivienda asequible`,
  },
  volunteer: {
    title: `Voluntariado | ${suffix}`,
    description: `Súmese a la campaña: visitas puerta a puerta, llamadas, mensajes de texto, eventos o ayuda en línea para ${name}.`,
    keywords: `${baseKeywords}, voluntariado, visitas puerta a puerta, llamadas`,
  },
  donate: {
    title: `Donar | ${suffix}`,
    description: `Apoye la campaña de ${name} a la ${race}. Vea cómo se gastan las contribuciones y las reglas de contribución.`,
    keywords: `${baseKeywords}, donar, contribuir, financiamiento de campañas`,
  },
  blog: {
    title: `Noticias y eventos | ${suffix}`,
    description: `Noticias de la campaña, propuestas y próximos eventos de la campaña de ${name}.`,
    keywords: `${baseKeywords}, noticias, eventos, asamblea comunitaria`,
  },
  contact: {
    title: `Contacto | ${suffix}`,
    description: `Comuníquese con la campaña de ${name}: horario de oficina, prensa, respaldos, invitaciones y preguntas frecuentes.`,
    keywords: `${baseKeywords}, contacto, prensa, respaldos`,
  },
  vote: {
    title: `Cómo votar | ${suffix}`,
    description:
      'Cómo votar en Nueva Orleans: plazos de inscripción, lugares y horarios de votación anticipada, horario de las urnas el día de la elección, qué llevar y ayuda en las urnas.',
    keywords: `${baseKeywords}, cómo votar, votación anticipada, lugar de votación, inscripción de votantes`,
  },
  privacy: {
    title: `Política de Privacidad | ${suffix}`,
    description: `Cómo la campaña ${IDENTITY.committeeName} recopila, usa y protege su información.`,
    keywords: `${baseKeywords}, política de privacidad`,
  },
  terms: {
    title: `Términos de Uso | ${suffix}`,
    description: `Términos de uso del sitio web de ${IDENTITY.committeeName}, su programa de mensajes de texto y las donaciones.`,
    keywords: `${baseKeywords}, términos de uso, mensajes de texto`,
  },
  admin: {
    title: `Panel de administración | ${suffix}`,
    description: 'Acceso y panel del personal de la campaña.',
    keywords: `${baseKeywords}, administración`,
  },
  resetPassword: {
    title: `Restablecer la contraseña | ${suffix}`,
    description: 'Elija una contraseña nueva para su cuenta del personal de la campaña.',
    keywords: `${baseKeywords}, restablecer contraseña`,
  },
  forgotPassword: {
    title: `Olvidé mi contraseña | ${suffix}`,
    description: 'Pida una contraseña temporal para su cuenta del personal de la campaña.',
    keywords: `${baseKeywords}, olvidé mi contraseña`,
  },
  notFound: {
    title: `Página no encontrada | ${suffix}`,
    description: 'No encontramos la página que busca.',
    keywords: baseKeywords,
  },
  articleNotFound: {
    title: `Artículo no encontrado | ${suffix}`,
    description: articleNotFoundCopy.text,
    keywords: `${baseKeywords}, noticias`,
  },
} satisfies Translation<typeof en.pageMeta>;
