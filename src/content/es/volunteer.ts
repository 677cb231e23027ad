import type * as en from '../volunteer.ts';
import { IDENTITY } from '../identity.ts';
import type { Translation } from '../translation.ts';

/* Spanish of src/content/volunteer.ts (docs/decisions/166-spanish.md). */

export const volunteerIntro = {
  heading: 'Voluntariado',
  lead: `Las campañas se ganan entre vecinos que hablan con vecinos. Súmese al equipo que trabaja para elegir a ${IDENTITY.candidateName}.`,
} satisfies Translation<typeof en.volunteerIntro>;

export const helpAreas = [
  {
    title: 'Visitas puerta a puerta',
    description: 'Converse con los votantes en sus barrios y comparta la agenda de reformas.',
  },
  {
    title: 'Llamadas telefónicas',
    description: 'Llame a simpatizantes y votantes indecisos desde su casa o desde la oficina de la campaña.',
  },
  {
    title: 'Mensajes de texto',
    description: 'Envíe mensajes de texto personales a los votantes sobre eventos y la votación anticipada.',
  },
  {
    title: 'Organización de eventos',
    description: 'Ayude a organizar asambleas, encuentros y eventos comunitarios.',
  },
  {
    title: 'Difusión en línea',
    description:
      'Comparta contenido de la campaña, escriba publicaciones y ayude a crecer la comunidad en línea.',
  },
  {
    title: 'Otras habilidades',
    description:
      'Diseño, fotografía, traducción, captura de datos, transporte de votantes: cuéntenos qué hace mejor.',
  },
] satisfies Translation<typeof en.helpAreas>;

export const weeklyGoals = [
  { label: 'Voluntarios nuevos' },
  { label: 'Contactos con votantes' },
  { label: 'Eventos atendidos' },
  { label: 'Horas de voluntariado' },
] satisfies Translation<typeof en.weeklyGoals>;

export const progressCopy = {
  goalsHeading: 'Metas de esta semana',
  campaignHeading: 'Avance de la campaña',
  soFar: (current: string, deadline: string) => `${current} hasta ahora · para el ${deadline}`,
  ofTarget: (target: string) => `de ${target}`,
  unavailable: 'No podemos cargar las cifras de esta semana en este momento. Vuelva pronto.',
} satisfies Translation<typeof en.progressCopy>;

export const volunteerImpact = [
  { effort: '1 hora', activity: 'de llamadas', result: 'llega a 20-30 votantes' },
  { effort: '2 horas', activity: 'de visitas', result: 'cubren 40-60 hogares' },
  { effort: '4 horas', activity: 'de apoyo en eventos', result: 'involucran a más de 100 votantes' },
] satisfies Translation<typeof en.volunteerImpact>;

export const volunteerStateLabels = {
  LA: 'Luisiana',
  AL: 'Alabama',
  AR: 'Arkansas',
  FL: 'Florida',
  GA: 'Georgia',
  MS: 'Misisipi',
  TX: 'Texas',
  Other: 'Otro',
} satisfies Translation<typeof en.volunteerStateLabels>;

export const volunteerSuccess = {
  heading: '¡Gracias por ofrecerse como voluntario!',
  text: 'Una persona del equipo se comunicará con usted pronto con los siguientes pasos.',
  again: 'Inscribir a otro voluntario',
} satisfies Translation<typeof en.volunteerSuccess>;

export const volunteerAfterElection = {
  awaiting:
    'Gracias a cada vecino que tocó puertas, hizo llamadas y envió mensajes para esta campaña. Inscríbase para seguir siendo parte del trabajo por una Nueva Orleans mejor administrada.',
  won: 'Gracias a cada vecino que ayudó a ganar esta elección. Súmese al equipo para dar forma al trabajo que viene en el Ayuntamiento.',
  lost: 'Gracias a cada vecino que tocó puertas, hizo llamadas y envió mensajes para esta campaña. El trabajo por una Nueva Orleans mejor administrada continúa: inscríbase para seguir participando.',
  ended: 'Gracias a cada vecino que tocó puertas, hizo llamadas y envió mensajes para esta campaña.',
} satisfies Translation<typeof en.volunteerAfterElection>;
