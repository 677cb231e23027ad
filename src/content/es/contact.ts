import type * as en from '../contact.ts';
import { IDENTITY } from '../identity.ts';
import type { Translation } from '../translation.ts';
import { electionFacts } from './campaign.ts';
import { electionWords } from './vote.ts';

/* Spanish of src/content/contact.ts (docs/decisions/166-spanish.md). */

const name = IDENTITY.candidateName;
const first = IDENTITY.candidateFirstName;

export const contactIntro = {
  heading: 'Comuníquese con la campaña',
  lead: '¿Preguntas, ideas o inquietudes sobre Nueva Orleans? Queremos escucharle.',
} satisfies Translation<typeof en.contactIntro>;

export const officeHours = [
  { days: 'Lunes a viernes', hours: '9:00 a. m. - 8:00 p. m.' },
  { days: 'Sábado', hours: '10:00 a. m. - 6:00 p. m.' },
  { days: 'Domingo', hours: 'Con cita previa' },
] satisfies Translation<typeof en.officeHours>;

export const responseTimes = {
  press: 'en menos de 4 horas',
  contactReply: 'en menos de 24 horas',
  endorsementTimeline: '7 a 10 días hábiles',
  speakingNotice: '2 a 3 semanas',
} satisfies Translation<typeof en.responseTimes>;

export const outreachCards = [
  {
    title: 'Consultas de prensa',
    email: IDENTITY.emails.press,
    description: `Los medios de comunicación pueden escribir a nuestro equipo de prensa, que responde ${responseTimes.press} en horario de oficina.`,
  },
  {
    title: 'Respaldos',
    email: IDENTITY.emails.endorsements,
    description: `Organizaciones y líderes comunitarios que deseen respaldar a ${name}: espere una respuesta en ${responseTimes.endorsementTimeline}.`,
  },
  {
    title: 'Invitaciones a eventos',
    email: IDENTITY.emails.scheduling,
    description: `Invite a ${first} a su evento. Avísenos con ${responseTimes.speakingNotice} de anticipación.`,
  },
] satisfies Translation<typeof en.outreachCards>;

export const contactSubjectLabels = {
  general: 'Consulta general',
  volunteer: 'Voluntariado',
  press: 'Consulta de prensa',
  endorsement: 'Respaldo',
  event: 'Invitación a un evento',
  policy: 'Pregunta sobre las propuestas',
  donation: 'Donaciones',
  interview: 'Solicitud de entrevista',
} satisfies Translation<typeof en.contactSubjectLabels>;

export const contactFormIntro = {
  heading: 'Envíenos un mensaje',
  text: `Le responderemos ${responseTimes.contactReply}.`,
} satisfies Translation<typeof en.contactFormIntro>;

export const electionAnswer = {
  is: (day: string) => `El día de la elección es el ${day}.`,
  was: (day: string) => `El día de la elección fue el ${day}.`,
  runs: (range: string) => `La votación anticipada es ${electionWords.midSentence(range)}.`,
  ran: (range: string) => `La votación anticipada fue ${electionWords.midSentence(range)}.`,
} satisfies Translation<typeof en.electionAnswer>;

export const faqs = [
  {
    question: '¿Cuándo es el día de la elección?',
    answer: `${electionAnswer.is(electionFacts.electionDay.label)} ${electionAnswer.runs(electionFacts.earlyVoting.label)}`,
  },
  {
    question: '¿Cómo puedo ser voluntario?',
    answer:
      'Inscríbase en la página de Voluntariado y elija cómo quiere ayudar: visitas puerta a puerta, llamadas o mensajes de texto, eventos, difusión en línea u otras habilidades.',
  },
  {
    question: '¿Cómo se usan las donaciones?',
    answer:
      'La mayor parte de cada dólar va al contacto con los votantes; la página de Donar muestra cómo se reparte el gasto y las reglas de contribución.',
  },
  {
    question: `¿En qué consiste el compromiso de ${first} de un solo mandato?`,
    answer: `${name} se compromete a servir un solo mandato de cuatro años y a dedicarse por completo a dar resultados, no a la reelección.`,
  },
  {
    question: '¿Puedo pedir un letrero para el jardín o materiales de la campaña?',
    answer:
      'Sí. Envíenos un mensaje con el asunto "Consulta general" y su dirección, y un voluntario coordinará la entrega.',
  },
] satisfies Translation<typeof en.faqs>;
