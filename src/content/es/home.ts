import type * as en from '../home.ts';
import { IDENTITY } from '../identity.ts';
import type { Translation } from '../translation.ts';
import { electionFacts } from './campaign.ts';
import { electionFacts as facts } from '../campaign.ts';

/* Spanish of src/content/home.ts (docs/decisions/166-spanish.md). */

const badge = 'Candidato reformista • Un solo mandato';
const name = IDENTITY.candidateName;

export const carouselVideos = [
  { title: `Conozca a ${name}`, badge },
  { title: 'Un plan de un solo mandato para Nueva Orleans', badge },
] satisfies Translation<typeof en.carouselVideos>;

export const rotatingHeadlines = [
  'Liderazgo honesto para Nueva Orleans',
  'Una reforma con la que puede contar',
  'Un mandato. Resultados reales.',
] satisfies Translation<typeof en.rotatingHeadlines>;

export const rotatingSubheadings = [
  'Responsable',
  'Transparente',
  'Independiente',
  'Preparado',
] satisfies Translation<typeof en.rotatingSubheadings>;

export const pledgeQuotes = [
  '"Serviré un solo mandato, haré el trabajo y entregaré la ciudad en mejor estado del que la encontré."',
  '"Sin una campaña de reelección por delante, cada decisión se puede tomar por la ciudad y no por la próxima elección."',
  '"Cuatro años bastan para poner en orden las cuentas, arreglar las calles y recuperar la confianza."',
] satisfies Translation<typeof en.pledgeQuotes>;

export const candidateSummary = {
  heading: `Conozca a ${name}`,
  lead: `${name} se inscribió el ${electionFacts.qualifiedOn.label} como uno de los ${facts.candidateCount} candidatos a la alcaldía de Nueva Orleans: un contador y reformista que se compromete a un solo mandato.`,
  bullets: [
    `${facts.yearsFinancialExperience} años de experiencia financiera`,
    'Reformista independiente, no un político de carrera',
    'Un solo mandato: cuatro años dedicados a dar resultados',
    'Cuentas abiertas: cada dólar de la ciudad se puede seguir en línea',
  ],
} satisfies Translation<typeof en.candidateSummary>;

export const pillars = [
  {
    title: 'Infraestructura',
    description:
      'Arreglar calles, drenaje y el suministro eléctrico con un calendario público de reparaciones y presupuestos que usted puede seguir.',
  },
  {
    title: 'Seguridad pública',
    description:
      'Respuesta de emergencia más rápida, policía comunitaria y prevención de la violencia, medidas y publicadas.',
  },
  {
    title: 'Transparencia',
    description:
      'Chequera abierta, auditorías independientes e informes en lenguaje sencillo sobre el gasto de cada departamento.',
  },
  {
    title: 'Prosperidad para todos',
    description:
      'Buenos empleos, apoyo a los pequeños negocios y vivienda asequible en todos los barrios, no solo en algunos.',
  },
] satisfies Translation<typeof en.pillars>;

export const phasesHeading = 'Fases de la campaña de 90 días';

export const campaignPhases = [
  {
    title: 'Fase 1: Cimientos',
    period: 'Del 12 de julio al 10 de agosto de 2025',
    description: 'Formar el equipo, abrir la sede, reclutar capitanes de barrio y publicar las propuestas.',
  },
  {
    title: 'Fase 2: Impulso',
    period: 'Del 11 de agosto al 9 de septiembre de 2025',
    description:
      'Asambleas en cada distrito del concejo, visitas puerta a puerta y presencia en los medios con la agenda de reformas.',
  },
  {
    title: 'Fase 3: Movilización del voto',
    period: 'Del 10 de septiembre al 10 de octubre de 2025',
    description: `Salir a votar: llamadas y mensajes de texto, transporte a las urnas y un gran esfuerzo durante la votación anticipada (${electionFacts.earlyVoting.label}).`,
  },
] satisfies Translation<typeof en.campaignPhases>;

export const phaseStatusLabels = {
  active: 'En curso',
  completed: 'Completada',
  upcoming: 'Próxima',
  planned: 'Planificada',
} satisfies Translation<typeof en.phaseStatusLabels>;

export const textSignup = {
  heading: 'Inscríbase para recibir mensajes de texto',
  text: 'Reciba noticias de la campaña, recordatorios para votar y anuncios de servicio público por mensaje de texto.',
} satisfies Translation<typeof en.textSignup>;

export const textSignupAfterElection = {
  text: 'Reciba noticias de la campaña y anuncios de servicio público por mensaje de texto.',
} satisfies Translation<typeof en.textSignupAfterElection>;

export const candidateSummaryAfterElection = {
  ran: `${name} se inscribió el ${electionFacts.qualifiedOn.label} como uno de los ${facts.candidateCount} candidatos a la alcaldía de Nueva Orleans: un contador y reformista que se postuló con el compromiso de un solo mandato.`,
  elected: `${name} se inscribió el ${electionFacts.qualifiedOn.label} como uno de los ${facts.candidateCount} candidatos a la alcaldía de Nueva Orleans, y fue electo con el compromiso de un solo mandato: un contador y reformista, no un político de carrera.`,
} satisfies Translation<typeof en.candidateSummaryAfterElection>;
